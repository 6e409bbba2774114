package grep

import (
	"context"
	"sync/atomic"
)

// matchLimit stops a search once a backtracking match ran past
// posixre.MatchLimit, as GNU grep -P stops on PCRE's backtracking limit
// with status 2. It is shared by the workers of a parallel search.
type matchLimit struct {
	ctx  context.Context // the search's context, cancelled on the limit
	stop context.CancelFunc
	hit  atomic.Bool
}

func newMatchLimit(ctx context.Context) *matchLimit {
	l := &matchLimit{}
	l.ctx, l.stop = context.WithCancel(ctx)
	return l
}

// bind ties m's expression to the search.
func (l *matchLimit) bind(m *matcher) {
	if m.re != nil {
		m.re.Bound(l.ctx, func() {
			l.hit.Store(true)
			l.stop()
		})
	}
}
