package posixre

import "unicode/utf8"

// ListOptions are grep's whole-word and whole-line matching modes.
type ListOptions struct {
	Word bool // -w: the match must be neither preceded nor followed by a word character
	Line bool // -x: the match must be a whole line
}

// CompileList compiles grep's pattern list: a subject matches when any of
// the patterns matches it. Back-references refer to groups of their own
// pattern. With lo.Word, matches found are the words proper; GNU's rule
// applies (the leftmost start where some match is a whole word, then the
// longest such match). An empty list matches nothing. Syntax Fixed takes
// each pattern as a plain string; PCRE accepts a single pattern.
func CompileList(patterns []string, syn Syntax, fl Flags, lo ListOptions) (*Regexp, error) {
	if syn == PCRE {
		p := ""
		if len(patterns) > 0 {
			p = patterns[0]
		}
		return compilePCRE(p, fl, lo)
	}
	re := &Regexp{}
	var alts []*node
	backref := false
	for i, p := range patterns {
		tree, ps, err := parseSyntax(p, syn)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			re.expr += "\n"
		}
		re.expr += p
		shiftGroups(tree, re.nsub)
		re.nsub += ps.ngroups
		re.warnings = append(re.warnings, ps.warnings...)
		backref = backref || ps.backref
		alts = append(alts, tree)
	}
	var tree *node
	switch len(alts) {
	case 0:
		tree = &node{kind: nSet, set: &charSet{}} // matches nothing
	case 1:
		tree = alts[0]
	default:
		tree = &node{kind: nAlt, subs: alts}
	}
	if !fl.IgnoreCase {
		re.must = mustLiteral(tree)
	}
	if lo.Line {
		tree = &node{kind: nConcat, subs: []*node{{kind: nBOL}, tree, {kind: nEOL}}}
		re.anchored = true
	} else if lo.Word {
		shiftGroups(tree, 1)
		inner := &node{kind: nGroup, idx: 1, subs: []*node{tree}}
		after := &node{kind: nAlt, subs: []*node{{kind: nSet, set: wordSet(true)}, {kind: nEOL}}}
		before := &node{kind: nAlt, subs: []*node{{kind: nBOL}, {kind: nSet, set: wordSet(true)}}}
		rest := &Regexp{expr: re.expr, nsub: re.nsub, inner: 1}
		if err := rest.build(&node{kind: nConcat, subs: []*node{{kind: nSet, set: wordSet(true)}, inner, after}}, backref, fl); err != nil {
			return nil, err
		}
		re.rest = rest
		re.inner = 1
		tree = &node{kind: nConcat, subs: []*node{before, inner, after}}
	}
	if err := re.build(tree, backref, fl); err != nil {
		return nil, err
	}
	if len(patterns) != 1 {
		re.literal, re.isLit = "", false
	}
	return re, nil
}

func shiftGroups(n *node, by int) {
	if by == 0 {
		return
	}
	if n.kind == nGroup || n.kind == nBackref {
		n.idx += by
	}
	for _, s := range n.subs {
		shiftGroups(s, by)
	}
}

// mustLiteral finds the longest string that every match of n contains.
func mustLiteral(n *node) string {
	_, must := litInfo(n)
	return must
}

// litInfo returns the exact text of n when n matches only that text, and
// the longest string any match of n must contain.
func litInfo(n *node) (exact string, must string) {
	switch n.kind {
	case nLit:
		if n.r == utf8.RuneError && len(n.raw) == 1 {
			return "", ""
		}
		return string(n.raw), string(n.raw)
	case nSet:
		if r, ok := n.set.single(); ok {
			return string(r), string(r)
		}
	case nGroup:
		e, m := litInfo(n.subs[0])
		return e, m
	case nRepeat:
		e, m := litInfo(n.subs[0])
		if n.min == 0 {
			return "", ""
		}
		if n.min == 1 && n.max == 1 {
			return e, m
		}
		return "", m
	case nConcat:
		best, run := "", ""
		exact := true
		for _, s := range n.subs {
			if isZeroWidth(s) {
				// an assertion does not break a run of text
				exact = false
				continue
			}
			e, m := litInfo(s)
			if e != "" || s.kind == nEmpty {
				run += e
			} else {
				exact = false
				if len(run) > len(best) {
					best = run
				}
				run = ""
			}
			if len(m) > len(best) {
				best = m
			}
		}
		if len(run) > len(best) {
			best = run
		}
		if exact {
			return best, best
		}
		return "", best
	}
	return "", ""
}

func isZeroWidth(n *node) bool {
	switch n.kind {
	case nBOL, nEOL, nBOT, nEOT, nWordB, nNotWordB, nWordStart, nWordEnd:
		return true
	}
	return false
}
