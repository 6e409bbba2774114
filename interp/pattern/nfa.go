package pattern

import "math/bits"

// nfa is a bit-parallel automaton for a pattern without extglob groups and
// with at most 63 nodes. State k (bit k) means "nodes[:k] matched"; state m
// accepts. A star stays in its state while consuming and also enables the
// next state without consuming. The simulation is linear in the string.
type nfa struct {
	nodes  []node // in matching direction (reversed for suffixes)
	m      int
	stars  uint64
	accept uint64
	init   uint64
	ascii  [128]uint64 // states whose node consumes the ASCII character
	nocase bool
	dot    uint64 // states whose node is a literal '.', for Period
}

func newNFA(nodes []node, flags Flags, reverse bool) *nfa {
	if len(nodes) > 63 {
		return nil
	}
	a := &nfa{m: len(nodes), nocase: flags&NoCase != 0}
	a.nodes = make([]node, len(nodes))
	for i, n := range nodes {
		if reverse {
			a.nodes[len(nodes)-1-i] = n
		} else {
			a.nodes[i] = n
		}
	}
	for k := range a.nodes {
		n := &a.nodes[k]
		if n.kind == kStar {
			a.stars |= 1 << k
			continue
		}
		if n.kind == kLit && n.r == '.' {
			a.dot |= 1 << k
		}
		for c := rune(0); c < 128; c++ {
			if n.matchOne(c, a.nocase) {
				a.ascii[c] |= 1 << k
			}
		}
	}
	a.accept = 1 << a.m
	a.init = a.closure(1)
	return a
}

func (a *nfa) closure(s uint64) uint64 { return s | (s&a.stars)<<1 }

// consumers returns the states whose node consumes r.
func (a *nfa) consumers(r rune, s uint64) uint64 {
	if r < 128 {
		return a.ascii[r]
	}
	var out uint64
	for t := s &^ a.stars &^ a.accept; t != 0; t &= t - 1 {
		k := bits.TrailingZeros64(t)
		if a.nodes[k].matchOne(r, a.nocase) {
			out |= 1 << k
		}
	}
	return out
}

func (a *nfa) step(s uint64, r rune) uint64 {
	return a.closure(s&a.stars | (s&a.consumers(r, s))<<1)
}

// match reports whether the whole of s matches.
func (a *nfa) match(s string, period bool) bool {
	st := a.init
	i := 0
	if period && len(s) > 0 && s[0] == '.' {
		st = a.closure((st & a.dot) << 1)
		i = 1
	}
	for i < len(s) && st != 0 {
		r, n := runeAt(s, i)
		st = a.step(st, r)
		i += n
	}
	return st&a.accept != 0
}

// prefix returns the shortest or longest end of a match of s[from:]
// anchored at from, or -1.
func (a *nfa) prefix(s string, from int, longest bool) int {
	st := a.init
	end := -1
	i := from
	for {
		if st&a.accept != 0 {
			end = i
			if !longest {
				return end
			}
		}
		if i >= len(s) || st == 0 {
			return end
		}
		r, n := runeAt(s, i)
		st = a.step(st, r)
		i += n
	}
}

// suffix, on the reversed automaton, returns the start of the shortest or
// longest match anchored at the end of s, or -1.
func (a *nfa) suffix(s string, longest bool) int {
	st := a.init
	start := -1
	i := len(s)
	for {
		if st&a.accept != 0 {
			start = i
			if !longest {
				return start
			}
		}
		if i <= 0 || st == 0 {
			return start
		}
		r, n := runeBefore(s, i)
		st = a.step(st, r)
		i -= n
	}
}

// starts, on the reversed automaton, marks every position i >= from at
// which some match of the pattern begins, in one backward pass.
func (a *nfa) starts(s string, from int) []uint64 {
	set := make([]uint64, len(s)/64+1)
	st := a.init
	i := len(s)
	for {
		if st&a.accept != 0 {
			set[i>>6] |= 1 << (i & 63)
		}
		if i <= from {
			return set
		}
		r, n := runeBefore(s, i)
		st = a.step(st, r) | a.init
		i -= n
	}
}
