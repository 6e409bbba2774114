package ls

import (
	"sort"
	"strings"
	"time"

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
			if c := filevercmp(a.name, b.name); c != 0 {
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

// filevercmp compares file names the way GNU's version sort does: a
// leading "." or ".." first, then hidden names, then the rest, comparing
// the names without their suffixes first, digit runs numerically.
func filevercmp(a, b string) int {
	if a == "" || b == "" {
		switch {
		case a == b:
			return 0
		case a == "":
			return -1
		}
		return 1
	}
	if a[0] == '.' {
		if b[0] != '.' {
			return -1
		}
		for _, special := range []string{".", ".."} {
			as, bs := a == special, b == special
			if as || bs {
				switch {
				case as && bs:
					return 0
				case as:
					return -1
				}
				return 1
			}
		}
	} else if b[0] == '.' {
		return 1
	}
	ap, bp := prefixLen(a), prefixLen(b)
	r := verrevcmp(a[:ap], b[:bp])
	if r != 0 || ap == len(a) && bp == len(b) {
		return r
	}
	return verrevcmp(a, b)
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// prefixLen is the length of s without its suffix of the form
// (\.[A-Za-z~][A-Za-z0-9~]*)*; the first character always stays.
func prefixLen(s string) int {
	n, prefix, i := len(s), 0, 0
	for i < n {
		i++
		prefix = i
		for i+1 < n && s[i] == '.' && (isAlpha(s[i+1]) || s[i+1] == '~') {
			i += 2
			for i < n && (isAlpha(s[i]) || isDigit(s[i]) || s[i] == '~') {
				i++
			}
		}
	}
	return prefix
}

func order(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	c := s[i]
	switch {
	case isDigit(c):
		return 0
	case isAlpha(c):
		return int(c)
	case c == '~':
		return -1
	}
	return int(c) + 256
}

// verrevcmp is Debian's version comparison.
func verrevcmp(a, b string) int {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		firstDiff := 0
		for i < len(a) && !isDigit(a[i]) || j < len(b) && !isDigit(b[j]) {
			ac, bc := order(a, i), order(b, j)
			if ac != bc {
				return ac - bc
			}
			i++
			j++
		}
		for i < len(a) && a[i] == '0' {
			i++
		}
		for j < len(b) && b[j] == '0' {
			j++
		}
		for i < len(a) && j < len(b) && isDigit(a[i]) && isDigit(b[j]) {
			if firstDiff == 0 {
				firstDiff = int(a[i]) - int(b[j])
			}
			i++
			j++
		}
		if i < len(a) && isDigit(a[i]) {
			return 1
		}
		if j < len(b) && isDigit(b[j]) {
			return -1
		}
		if firstDiff != 0 {
			return firstDiff
		}
	}
	return 0
}
