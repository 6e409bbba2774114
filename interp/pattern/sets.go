package pattern

import (
	"context"
	"math/bits"
	"unicode/utf8"
)

// posSet is a set of byte positions 0..len(s) in the subject string.
type posSet []uint64

func (p posSet) add(i int)      { p[i>>6] |= 1 << (i & 63) }
func (p posSet) has(i int) bool { return p[i>>6]&(1<<(i&63)) != 0 }

func (p posSet) empty() bool {
	for _, w := range p {
		if w != 0 {
			return false
		}
	}
	return true
}

func (p posSet) min() int {
	for k, w := range p {
		if w != 0 {
			return k*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

func (p posSet) max() int {
	for k := len(p) - 1; k >= 0; k-- {
		if w := p[k]; w != 0 {
			return k*64 + 63 - bits.LeadingZeros64(w)
		}
	}
	return -1
}

// each calls f for every member in increasing order.
func (p posSet) each(f func(int)) {
	for k, w := range p {
		for ; w != 0; w &= w - 1 {
			f(k*64 + bits.TrailingZeros64(w))
		}
	}
}

// setMatcher evaluates patterns with extglob groups (or too many nodes for
// the NFA) on sets of positions: applying a node to the set of positions
// where it may start gives the set where it may end. Only !(..) needs one
// evaluation per start position; those are memoised for short subjects.
type setMatcher struct {
	s      string
	words  int
	nocase bool
	period bool
	bounds posSet // character boundaries; nil when s is ASCII
	ctx    context.Context
	work   int
	err    error
	memo   map[memoKey]posSet
}

type memoKey struct {
	n *node
	p int
}

// maxMemo bounds the subject length for which !(..) results are memoised,
// which keeps memory at O(nodes * n^2 / 8) bytes with n at most this.
const maxMemo = 2048

// ctxCheckWork is how many set words are processed between context checks.
const ctxCheckWork = 1 << 16

func newSetMatcher(ctx context.Context, s string, flags Flags) *setMatcher {
	m := &setMatcher{s: s, words: len(s)/64 + 1, nocase: flags&NoCase != 0, period: flags&Period != 0, ctx: ctx}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			m.bounds = m.newSet()
			for j := 0; j < len(s); {
				m.bounds.add(j)
				_, n := runeAt(s, j)
				j += n
			}
			m.bounds.add(len(s))
			break
		}
	}
	if len(s) <= maxMemo {
		m.memo = map[memoKey]posSet{}
	}
	return m
}

func (m *setMatcher) newSet() posSet { return make(posSet, m.words) }

func (m *setMatcher) single(i int) posSet {
	s := m.newSet()
	s.add(i)
	return s
}

// charge counts work and checks the context now and then.
func (m *setMatcher) charge(n int) bool {
	if m.err != nil {
		return false
	}
	m.work += n
	if m.work >= ctxCheckWork {
		m.work = 0
		if err := m.ctx.Err(); err != nil {
			m.err = err
			return false
		}
	}
	return true
}

// from returns the positions i..len(s), at character boundaries.
func (m *setMatcher) from(i int) posSet {
	out := m.newSet()
	n := len(m.s)
	for k := i; k <= n; {
		if k&63 == 0 && k+64 <= n+1 {
			out[k>>6] = ^uint64(0)
			k += 64
			continue
		}
		out.add(k)
		k++
	}
	if m.bounds != nil {
		for k := range out {
			out[k] &= m.bounds[k]
		}
	}
	return out
}

// leadingDot reports whether position p is a leading '.' only a literal
// '.' may consume.
func (m *setMatcher) leadingDot(p int) bool {
	return m.period && p == 0 && len(m.s) > 0 && m.s[0] == '.'
}

// seq applies a sequence of nodes to the start set in.
func (m *setMatcher) seq(nodes []node, in posSet) posSet {
	cur := in
	for i := range nodes {
		if cur.empty() {
			return cur
		}
		if !m.charge(m.words) {
			return m.newSet()
		}
		if nodes[i].kind == kStar && starQuirk(nodes[i+1:]) {
			return m.afterStar(nodes[i+1:], cur, m.apply(&nodes[i], cur))
		}
		cur = m.apply(&nodes[i], cur)
	}
	return cur
}

// starQuirk reports whether bash's matcher treats the rest of a sequence
// after a star specially: when the rest, past any ?(..) and *(..) groups
// (which bash skips as optional), starts with a @(..) +(..) or !(..) group,
// bash tries the rest only at positions before the end of the subject, so
// the rest must match at least one character. [[ ab == *+(z|) ]] is false
// in bash 5.2, and patterns in scripts rely on what bash does.
func starQuirk(rest []node) bool {
	for _, n := range rest {
		if n.kind != kGroup {
			return false
		}
		if n.op != '?' && n.op != '*' {
			return true
		}
	}
	return false
}

// afterStar matches rest from each position in starts separately, keeping
// only non-empty matches (see starQuirk). The exception is bash's: where
// the star itself matched nothing (its start in in) and the rest begins
// with !( or ?(, the rest may match nothing too.
func (m *setMatcher) afterStar(rest []node, in, starts posSet) posSet {
	out := m.newSet()
	emptyOK := rest[0].op == '!' || rest[0].op == '?'
	starts.each(func(p int) {
		if m.err != nil {
			return
		}
		r := m.seq(rest, m.single(p))
		if !emptyOK || !in.has(p) {
			r[p>>6] &^= 1 << (p & 63)
		}
		for k := range out {
			out[k] |= r[k]
		}
	})
	return out
}

func (m *setMatcher) apply(n *node, in posSet) posSet {
	s := m.s
	switch n.kind {
	case kStar:
		lo := in.min()
		if m.leadingDot(lo) {
			rest := m.newSet()
			copy(rest, in)
			rest[0] &^= 1
			out := m.newSet()
			if k := rest.min(); k >= 0 {
				out = m.from(k)
			}
			out.add(0)
			return out
		}
		return m.from(lo)
	case kGroup:
		return m.group(n, in)
	}
	out := m.newSet()
	in.each(func(p int) {
		if p >= len(s) {
			return
		}
		r, size := runeAt(s, p)
		if m.leadingDot(p) && (n.kind != kLit || n.r != '.') {
			return
		}
		if n.matchOne(r, m.nocase) {
			out.add(p + size)
		}
	})
	return out
}

// alts is @(..): the union over the alternatives.
func (m *setMatcher) alts(n *node, in posSet) posSet {
	out := m.newSet()
	for _, a := range n.alts {
		r := m.seq(a, in)
		for k := range out {
			out[k] |= r[k]
		}
	}
	return out
}

func (m *setMatcher) group(n *node, in posSet) posSet {
	switch n.op {
	case '@':
		return m.alts(n, in)
	case '?':
		out := m.alts(n, in)
		for k := range out {
			out[k] |= in[k]
		}
		return out
	case '+', '*':
		if oneCharAlts(n) {
			return m.repeatChars(n, in)
		}
		all := m.alts(n, in)
		front := all
		for !front.empty() && m.charge(m.words) {
			next := m.alts(n, front)
			grew := false
			for k := range next {
				next[k] &^= all[k]
				if next[k] != 0 {
					grew = true
				}
				all[k] |= next[k]
			}
			if !grew {
				break
			}
			front = next
		}
		if n.op == '*' {
			for k := range all {
				all[k] |= in[k]
			}
		}
		return all
	}
	// '!': everything from each start except what @(..) matches there.
	out := m.newSet()
	in.each(func(p int) {
		if m.err != nil || m.leadingDot(p) {
			return
		}
		hit, ok := m.memo[memoKey{n, p}]
		if !ok {
			hit = m.alts(n, m.single(p))
			if m.memo != nil {
				m.memo[memoKey{n, p}] = hit
			}
		}
		rest := m.from(p)
		for k := range out {
			out[k] |= rest[k] &^ hit[k]
		}
	})
	return out
}

// oneCharAlts reports whether every alternative of a group is one
// character (+(0), *([[:space:]]|-)): its repetition is a run of such
// characters, found in one pass.
func oneCharAlts(n *node) bool {
	for _, a := range n.alts {
		if len(a) != 1 || a[0].kind == kStar || a[0].kind == kGroup {
			return false
		}
	}
	return len(n.alts) > 0
}

// repeatChars is +(..) or *(..) of one-character alternatives, linear in
// the subject: walking forward, a position is live when a start is there
// or a repetition reached it, and a live position whose character some
// alternative matches reaches the next one. (The general fixpoint costs
// one pass over the set per character of the longest run.)
func (m *setMatcher) repeatChars(n *node, in posSet) posSet {
	s := m.s
	out := m.newSet()
	lo, hi := in.min(), in.max()
	if lo < 0 {
		return out
	}
	for p, steps := lo, 0; p < len(s); steps++ {
		live := in.has(p) || out.has(p)
		if !live && p > hi {
			break
		}
		r, size := runeAt(s, p)
		if live {
			dot := m.leadingDot(p) // only a literal '.' consumes it
			for i := range n.alts {
				a := &n.alts[i][0]
				if (!dot || a.kind == kLit && a.r == '.') && a.matchOne(r, m.nocase) {
					out.add(p + size)
					break
				}
			}
		}
		if steps&1023 == 1023 && !m.charge(1024) {
			return m.newSet()
		}
		p += size
	}
	if n.op == '*' {
		for k := range out {
			out[k] |= in[k]
		}
	}
	return out
}

// The modes, on the set engine.

func (m *setMatcher) match(nodes []node) bool {
	return m.seq(nodes, m.single(0)).has(len(m.s))
}

func (m *setMatcher) prefix(nodes []node, from int, longest bool) int {
	out := m.seq(nodes, m.single(from))
	if longest {
		return out.max()
	}
	return out.min()
}

// boundaries lists the character boundaries from..len(s).
func (m *setMatcher) boundaries(from int) []int {
	var b []int
	for i := from; i <= len(m.s); {
		b = append(b, i)
		if i == len(m.s) {
			break
		}
		_, n := runeAt(m.s, i)
		i += n
	}
	return b
}

func (m *setMatcher) suffix(nodes []node, longest bool) int {
	b := m.boundaries(0)
	for k := range b {
		i := b[k]
		if !longest {
			i = b[len(b)-1-k]
		}
		if m.err != nil {
			return -1
		}
		if m.seq(nodes, m.single(i)).has(len(m.s)) {
			return i
		}
	}
	return -1
}

// find returns the leftmost-longest match starting at or after from.
func (m *setMatcher) find(nodes []node, from int) (int, int) {
	for i := from; i <= len(m.s) && m.err == nil; {
		if e := m.seq(nodes, m.single(i)).max(); e >= 0 {
			return i, e
		}
		if i == len(m.s) {
			break
		}
		_, n := runeAt(m.s, i)
		i += n
	}
	return -1, -1
}
