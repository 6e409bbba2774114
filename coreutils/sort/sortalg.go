package sort

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"math"
	"runtime"
	"slices"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/filevercmp"
)

// rec is one input line: its bytes in the sorter's buffer, a cached
// 8-byte big-endian prefix (of the line or of the first key) for fast
// comparisons, the first key's bounds, and the input order for ties.
type rec struct {
	pfx    uint64
	lpfx   uint64 // prefix of the whole line, for the last resort
	off, n uint32
	kb, kl uint32 // first key, relative to off
	idx    uint32
	hasPfx bool
}

type sorter struct {
	keys        []*keyField
	tab         int // -1: blank-separated fields
	eol         byte
	unique      bool
	stable      bool
	reverse     bool // global -r, for the last-resort comparison
	hardCollate bool
	salt        [16]byte

	buf []byte
}

func (s *sorter) line(r *rec) []byte { return s.buf[r.off : r.off+r.n] }

// prepare computes the cached fields of each record.
func (s *sorter) prepare(recs []rec) {
	simple := len(s.keys) == 0
	var k0 *keyField
	if !simple {
		k0 = s.keys[0]
	}
	work := func(part []rec) {
		for i := range part {
			r := &part[i]
			line := s.line(r)
			if simple {
				r.pfx = prefix(line)
				r.lpfx = r.pfx
				r.hasPfx = true
				continue
			}
			r.lpfx = prefix(line)
			b, l := keyBounds(line, k0, s.tab)
			r.kb, r.kl = uint32(b), uint32(l)
			r.pfx, r.hasPfx = s.keyPrefix(k0, line[b:l])
		}
	}
	parallel(recs, work)
}

// parallel runs work over chunks of recs on the available cores.
func parallel(recs []rec, work func([]rec)) {
	n := runtime.GOMAXPROCS(0)
	if n > 4 {
		n = 4
	}
	if n < 2 || len(recs) < 1<<14 {
		work(recs)
		return
	}
	var wg builtins.Group
	size := (len(recs) + n - 1) / n
	for i := 0; i < len(recs); i += size {
		p := recs[i:min(i+size, len(recs))]
		wg.Go(func() { work(p) })
	}
	wg.Wait()
}

func prefix(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.BigEndian.Uint64(b)
	}
	var tmp [8]byte
	copy(tmp[:], b)
	return binary.BigEndian.Uint64(tmp[:])
}

// keyPrefix is a 64-bit summary of a key that orders keys the way the
// key's comparison does wherever two summaries differ (equal summaries
// need the full comparison). ok is false for kinds without one.
func (s *sorter) keyPrefix(k *keyField, key []byte) (uint64, bool) {
	if (k.ignore != nil || k.translate) && (k.numeric || k.general || k.human || k.month || k.random) {
		var c comparer
		key = c.filter(nil, key, k)
	}
	switch {
	case k.numeric:
		return numPrefix(key), true
	case k.general:
		return floatPrefix(key), true
	case k.human:
		return uint64(findUnitOrder(skipBlanks(key))+16)<<59 | numPrefix(key)>>5, true
	case k.month:
		return uint64(getmonth(key)), true
	case k.random:
		d := s.randomDigest(key)
		return binary.BigEndian.Uint64(d[:8]), true
	case k.version:
		return 0, false
	case k.ignore != nil || k.translate:
		var tmp [8]byte
		n := 0
		for _, ch := range key {
			if n == 8 {
				break
			}
			if k.ignore != nil && k.ignore[ch] {
				continue
			}
			if k.translate {
				ch = foldUpper[ch]
			}
			tmp[n] = ch
			n++
		}
		return binary.BigEndian.Uint64(tmp[:]), true
	}
	return prefix(key), true
}

// pfxDecides reports whether equal summaries mean equal keys.
func pfxDecides(k *keyField, pfx uint64) bool {
	switch {
	case k.numeric:
		return pfx == 1<<62 // both zero
	case k.general:
		return pfx == 0 || pfx > 2 // both conversion errors, or equal numbers
	case k.month:
		return true
	}
	return false
}

// foldCompare compares a and b with lower case folded to upper case.
func foldCompare(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if x, y := foldUpper[a[i]], foldUpper[b[i]]; x != y {
			return int(x) - int(y)
		}
	}
	return len(a) - len(b)
}

// numPrefix summarizes a -n key: its sign class, the number of integer
// digits and the first twelve significant digits.
func numPrefix(key []byte) uint64 {
	s := skipBlanks(key)
	i := 0
	neg := at(s, 0) == '-'
	if neg {
		i = 1
	}
	for at(s, i) == '0' {
		i++
	}
	start := i
	for isDigit(at(s, i)) {
		i++
	}
	intDigits := i - start
	var digits uint64
	nd := 0
	nonzero := intDigits > 0
	for j := start; j < i && nd < 12; j++ {
		digits = digits<<4 | uint64(s[j]-'0')
		nd++
	}
	if at(s, i) == '.' {
		for j := i + 1; isDigit(at(s, j)); j++ {
			if s[j] != '0' {
				nonzero = true
			}
			if nd < 12 {
				digits = digits<<4 | uint64(s[j]-'0')
				nd++
			}
		}
	}
	if !nonzero {
		return 1 << 62
	}
	for ; nd < 12; nd++ {
		digits <<= 4
	}
	mag := uint64(min(intDigits, 1<<14-1))<<48 | digits
	if neg {
		return ^mag & (1<<62 - 1)
	}
	return 2<<62 | mag
}

// floatPrefix orders -g keys: conversion errors, then NaNs, then numbers.
func floatPrefix(key []byte) uint64 {
	v, ok := strtold(key)
	switch {
	case !ok:
		return 0
	case v != v:
		if math.Signbit(v) {
			return 2
		}
		return 1
	case v == 0:
		v = 0
	}
	bits := math.Float64bits(v)
	if v < 0 {
		return ^bits
	}
	return bits | 1<<63
}

// comparer holds per-goroutine scratch space for key comparisons.
type comparer struct {
	s      *sorter
	ta, tb []byte
}

// compare orders two records as GNU sort does (keys, then the whole line
// unless -s or -u), without the input-order tie break.
func (c *comparer) compare(a, b *rec) int {
	s := c.s
	if len(s.keys) > 0 {
		d := c.keycompare(a, b)
		if d != 0 || s.unique || s.stable {
			return d
		}
	} else if a.pfx != b.pfx {
		return reversed(cmp.Compare(a.pfx, b.pfx), s.reverse)
	}
	d := cmp.Compare(a.lpfx, b.lpfx)
	if d == 0 {
		d = bytes.Compare(s.line(a), s.line(b))
	}
	return reversed(d, s.reverse)
}

// reversed is d, negated for a reverse order.
func reversed(d int, reverse bool) int {
	if reverse {
		return -d
	}
	return d
}

// cmpRec is compare with the input order breaking ties: a stable order.
func (c *comparer) cmpRec(a, b *rec) int {
	if d := c.compare(a, b); d != 0 {
		return d
	}
	return int(a.idx) - int(b.idx)
}

func (c *comparer) filter(dst, src []byte, k *keyField) []byte {
	dst = dst[:0]
	for _, ch := range src {
		if k.ignore != nil && k.ignore[ch] {
			continue
		}
		if k.translate {
			ch = foldUpper[ch]
		}
		dst = append(dst, ch)
	}
	return dst
}

func (c *comparer) keycompare(a, b *rec) int {
	s := c.s
	la, lb := s.line(a), s.line(b)
	ta, tb := la[a.kb:a.kl], lb[b.kb:b.kl]
	for i, k := range s.keys {
		if i > 0 {
			ba, ea := keyBounds(la, k, s.tab)
			bb, eb := keyBounds(lb, k, s.tab)
			ta, tb = la[ba:ea], lb[bb:eb]
		} else if a.hasPfx && b.hasPfx {
			if a.pfx != b.pfx {
				return reversed(cmp.Compare(a.pfx, b.pfx), k.reverse)
			}
			if pfxDecides(k, a.pfx) {
				continue
			}
		}
		if k.translate && k.ignore == nil && !(k.numeric || k.general || k.human || k.month || k.random || k.version) {
			if d := foldCompare(ta, tb); d != 0 {
				return reversed(d, k.reverse)
			}
			continue
		}
		if k.ignore != nil || k.translate {
			c.ta = c.filter(c.ta, ta, k)
			c.tb = c.filter(c.tb, tb, k)
			ta, tb = c.ta, c.tb
		}
		var d int
		switch {
		case k.numeric:
			d = numcompare(ta, tb)
		case k.general:
			d = generalcompare(ta, tb)
		case k.human:
			d = humancompare(ta, tb)
		case k.month:
			d = getmonth(ta) - getmonth(tb)
		case k.random:
			d = s.randomcompare(ta, tb)
		case k.version:
			d = filevercmp.Compare(ta, tb)
		default:
			d = bytes.Compare(ta, tb)
		}
		if d != 0 {
			return reversed(d, k.reverse)
		}
	}
	return 0
}

// sortRecs sorts recs stably, in parallel when large.
func (s *sorter) sortRecs(ctx context.Context, recs []rec) error {
	psort(recs, func() func(a, b rec) int {
		c := &comparer{s: s}
		return func(a, b rec) int { return c.cmpRec(&a, &b) }
	})
	return ctx.Err()
}

// srec is a record for sorting whole lines by bytes (no keys, no -s):
// equal lines are identical, so ties need no input order.
type srec struct {
	pfx    uint64
	off, n uint32
}

// sortSimple sorts whole lines in byte order (reversed with -r).
func (s *sorter) sortSimple(ctx context.Context, recs []srec) error {
	buf := s.buf
	rev := s.reverse
	psort(recs, func() func(a, b srec) int {
		return func(a, b srec) int {
			d := 0
			if a.pfx != b.pfx {
				d = 1
				if a.pfx < b.pfx {
					d = -1
				}
			} else {
				d = bytes.Compare(buf[a.off:a.off+a.n], buf[b.off:b.off+b.n])
			}
			if rev {
				return -d
			}
			return d
		}
	})
	return ctx.Err()
}

// psort sorts recs with the comparators made by mk (one per goroutine):
// chunks are sorted concurrently, then merged pairwise. Ties keep the
// order of the chunks, so a comparator that breaks ties by input order
// gives a stable sort.
func psort[T any](recs []T, mk func() func(a, b T) int) {
	n := runtime.GOMAXPROCS(0)
	if n > 4 {
		n = 4
	}
	if n < 2 || len(recs) < 1<<15 {
		slices.SortFunc(recs, mk())
		return
	}
	size := (len(recs) + n - 1) / n
	var chunks [][]T
	for i := 0; i < len(recs); i += size {
		chunks = append(chunks, recs[i:min(i+size, len(recs))])
	}
	var wg builtins.Group
	for _, ch := range chunks {
		wg.Go(func() { slices.SortFunc(ch, mk()) })
	}
	wg.Wait()
	tmp := make([]T, len(recs))
	src, dst := recs, tmp
	for len(chunks) > 1 {
		var next [][]T
		var wg builtins.Group
		off := 0
		for i := 0; i < len(chunks); i += 2 {
			if i+1 == len(chunks) {
				out := dst[off : off+len(chunks[i])]
				copy(out, chunks[i])
				next = append(next, out)
				off += len(chunks[i])
				continue
			}
			a, b := chunks[i], chunks[i+1]
			out := dst[off : off+len(a)+len(b)]
			off += len(out)
			next = append(next, out)
			wg.Go(func() { merge(out, a, b, mk()) })
		}
		wg.Wait()
		chunks = next
		src, dst = dst, src
	}
	if len(recs) > 0 && &src[0] != &recs[0] {
		copy(recs, src)
	}
}

func merge[T any](out, a, b []T, cmp func(a, b T) int) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			out[k] = b[j]
			j++
		} else {
			out[k] = a[i]
			i++
		}
		k++
	}
	k += copy(out[k:], a[i:])
	copy(out[k:], b[j:])
}
