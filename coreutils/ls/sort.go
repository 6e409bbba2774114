package ls

import (
	"sort"
	"strings"
	"time"

	"github.com/bashbox/bashbox/coreutils/internal/filevercmp"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

type sortKey int

const (
	sortName sortKey = iota
	sortNone
	sortTime
	sortSize
	sortExtension
	sortVersion
	sortWidth
)

// sortEntries orders entries as GNU ls does: directories first when asked
// (not reversed), then the sort key with ties broken by name, the whole
// comparison reversed by -r.
func (l *lister) sortEntries(es []*entry) {
	if l.sort == sortNone {
		if l.reverse {
			for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
				es[i], es[j] = es[j], es[i]
			}
		}
		return
	}
	key := l.compareFunc()
	less := func(a, b *entry) bool {
		if l.dirsFirst {
			da, db := l.dirLike(a), l.dirLike(b)
			if da != db {
				return da
			}
		}
		c := key(a, b)
		if l.reverse {
			return c > 0
		}
		return c < 0
	}
	sort.SliceStable(es, func(i, j int) bool { return less(es[i], es[j]) })
}

func cmpName(a, b *entry) int { return strings.Compare(a.name, b.name) }

func (l *lister) compareFunc() func(a, b *entry) int {
	switch l.sort {
	case sortTime:
		return func(a, b *entry) int {
			ta, tb := l.timeOf(a), l.timeOf(b)
			if c := tb.Compare(ta); c != 0 {
				return c
			}
			return cmpName(a, b)
		}
	case sortSize:
		return func(a, b *entry) int {
			sa, sb := a.size(), b.size()
			switch {
			case sa > sb:
				return -1
			case sa < sb:
				return 1
			}
			return cmpName(a, b)
		}
	case sortExtension:
		return func(a, b *entry) int {
			if c := strings.Compare(extension(a.name), extension(b.name)); c != 0 {
				return c
			}
			return cmpName(a, b)
		}
	case sortVersion:
		return func(a, b *entry) int {
			if c := filevercmp.Compare(a.name, b.name); c != 0 {
				return c
			}
			return cmpName(a, b)
		}
	case sortWidth:
		return func(a, b *entry) int {
			wa, wb := quote.Width(l.quoteName(a.name)), quote.Width(l.quoteName(b.name))
			if wa != wb {
				return wa - wb
			}
			return cmpName(a, b)
		}
	}
	return cmpName
}

func extension(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i:]
	}
	return ""
}

func (l *lister) timeOf(e *entry) time.Time {
	if e.fi == nil {
		return time.Time{}
	}
	return l.fileTime(e.fi)
}
