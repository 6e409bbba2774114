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
	re := &Regexp{icase: fl.IgnoreCase}
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
	re.exact, re.mustAny = analyze(tree)
	if len(patterns) == 1 {
		re.mustAll = mustAll(tree)
	}
	if len(re.mustAny) == 1 && !fl.IgnoreCase {
		re.must = re.mustAny[0]
	}
	if lo.Line {
		tree = &node{kind: nConcat, subs: []*node{{kind: nBOL}, tree, {kind: nEOL}}}
		re.anchored = true
	} else if lo.Word {
		shiftGroups(tree, 1)
		inner := &node{kind: nGroup, idx: 1, subs: []*node{tree}}
		after := &node{kind: nAlt, subs: []*node{{kind: nSet, set: wordSet(true)}, {kind: nEOL}}}
		w := &wordParts{
			first: &Regexp{expr: re.expr, nsub: re.nsub, inner: 1},
			rest:  &Regexp{expr: re.expr, nsub: re.nsub, inner: 1},
			anch:  &Regexp{expr: re.expr, nsub: re.nsub + 1},
		}
		parts := []struct {
			re   *Regexp
			tree *node
		}{
			{w.first, &node{kind: nConcat, subs: []*node{{kind: nBOL}, inner, after}}},
			{w.rest, &node{kind: nConcat, subs: []*node{{kind: nSet, set: wordSet(true)}, inner, after}}},
			{w.anch, &node{kind: nConcat, subs: []*node{{kind: nBOT}, inner}}},
		}
		for _, part := range parts {
			if err := part.re.build(part.tree, backref, fl); err != nil {
				return nil, err
			}
		}
		re.word = w
		re.inner = 1
		before := &node{kind: nAlt, subs: []*node{{kind: nBOL}, {kind: nSet, set: wordSet(true)}}}
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

// maxSet bounds the string sets the literal analysis builds.
const maxSet = 64

// analyze returns exact, the finite set of strings n matches (nil when
// unknown or too many), and must, a set of strings one of which every
// match of n contains (nil when none is known).
func analyze(n *node) (exact, must []string) {
	switch n.kind {
	case nLit:
		if n.r == utf8.RuneError && len(n.raw) == 1 {
			return nil, nil
		}
		s := []string{string(n.raw)}
		return s, s
	case nEmpty:
		return []string{""}, nil
	case nSet:
		if n.set.negate || len(n.set.props) > 0 {
			return nil, nil
		}
		var out []string
		for _, r := range n.set.ranges {
			if r.hi-r.lo >= maxSet || len(out) > maxSet {
				return nil, nil
			}
			for c := r.lo; c <= r.hi; c++ {
				out = append(out, string(c))
			}
		}
		out = dedupe(out)
		if len(out) > 8 {
			return nil, nil
		}
		return out, out
	case nGroup:
		return analyze(n.subs[0])
	case nRepeat:
		e, m := analyze(n.subs[0])
		if n.min == 0 {
			return nil, nil
		}
		if m == nil {
			m = e
		}
		if n.min == 1 && n.max == 1 {
			return e, m
		}
		return nil, m
	case nAlt:
		var ex, mu []string
		exactOK, mustOK := true, true
		for _, s := range n.subs {
			e, m := analyze(s)
			if e == nil {
				exactOK = false
			}
			if m == nil {
				m = e
			}
			if m == nil || contains(m, "") {
				mustOK = false
			}
			ex = append(ex, e...)
			mu = append(mu, m...)
		}
		if !exactOK || len(ex) > maxSet {
			ex = nil
		}
		if !mustOK || len(mu) > maxSet {
			mu = nil
		}
		return dedupe(ex), dedupe(mu)
	case nConcat:
		run := []string{""}
		var best []string
		exactOK := true
		consider := func(c []string) {
			if better(c, best) {
				best = c
			}
		}
		for _, s := range n.subs {
			if isZeroWidth(s) {
				// an assertion does not break a run of text
				exactOK = false
				continue
			}
			e, m := analyze(s)
			if e != nil && len(run)*len(e) <= maxSet {
				run = cross(run, e)
			} else {
				exactOK = false
				consider(run)
				run = []string{""}
			}
			consider(m)
		}
		consider(run)
		if exactOK {
			return run, best
		}
		return nil, best
	}
	return nil, nil
}

// mustAll returns strings that every match of n contains, each of them
// (a conjunction, where analyze's must is one alternative set).
func mustAll(n *node) []string {
	for n.kind == nGroup {
		n = n.subs[0]
	}
	if n.kind != nConcat {
		if _, m := analyze(n); len(m) == 1 && m[0] != "" {
			return m
		}
		return nil
	}
	var out []string
	run := ""
	flush := func() {
		if run != "" {
			out = append(out, run)
		}
		run = ""
	}
	for _, s := range n.subs {
		if isZeroWidth(s) {
			continue
		}
		e, m := analyze(s)
		if len(e) == 1 {
			run += e[0]
			continue
		}
		flush()
		if len(m) == 1 && m[0] != "" {
			out = append(out, m[0])
		}
	}
	flush()
	return dedupe(out)
}

// better reports whether set a is a better pre-filter than b: its
// shortest string is longer, or as long with fewer strings.
func better(a, b []string) bool {
	if len(a) == 0 || contains(a, "") {
		return false
	}
	if len(b) == 0 {
		return true
	}
	la, lb := minLen(a), minLen(b)
	if la != lb {
		return la > lb
	}
	return len(a) < len(b)
}

func minLen(set []string) int {
	m := -1
	for _, s := range set {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return dedupe(out)
}

func contains(set []string, s string) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}

func dedupe(set []string) []string {
	if set == nil {
		return nil
	}
	seen := map[string]bool{}
	out := set[:0:0]
	for _, s := range set {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func isZeroWidth(n *node) bool {
	switch n.kind {
	case nBOL, nEOL, nBOT, nEOT, nWordB, nNotWordB, nWordStart, nWordEnd:
		return true
	}
	return false
}
