package posixre

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// MatchLimit is how long one match on the backtracking engine may run. A
// pattern like (a+)+$ takes time exponential in the subject's length, and
// the engine cannot be interrupted from outside, so each match carries
// its own deadline: this bounds how long a cancelled call keeps a core
// busy, as PCRE's backtracking limit bounds GNU grep -P.
const MatchLimit = 300 * time.Millisecond

// bound ties the backtracking matches of a Regexp to a call.
type bound struct {
	ctx     context.Context
	onLimit func()
	limited atomic.Bool
	once    sync.Once
}

// Bound ties re's backtracking matches to ctx: once ctx is done they find
// nothing without running, and a match that runs past MatchLimit gives up
// and calls onLimit (once; on the goroutine of that match), after which
// every match finds nothing. The expression-level engine (RE2) is linear
// and needs no bound. Call Bound before sharing re between goroutines.
func (re *Regexp) Bound(ctx context.Context, onLimit func()) {
	b := &bound{ctx: ctx, onLimit: onLimit}
	re.setBound(b)
}

func (re *Regexp) setBound(b *bound) {
	if re == nil {
		return
	}
	re.bound = b
	if re.netRE != nil {
		re.netRE.MatchTimeout = MatchLimit
	}
	if w := re.word; w != nil {
		w.first.setBound(b)
		w.rest.setBound(b)
		w.anch.setBound(b)
	}
}

// stopped reports whether matches must not run any more.
func (b *bound) stopped() bool {
	return b != nil && (b.limited.Load() || b.ctx.Err() != nil)
}

// check records a match that gave up (regexp2 fails only on its timeout).
func (b *bound) check(err error) {
	if b == nil || err == nil {
		return
	}
	b.limited.Store(true)
	if b.ctx.Err() == nil && b.onLimit != nil {
		b.once.Do(b.onLimit)
	}
}
