// Package posixre implements GNU-compatible POSIX regular expressions (BRE
// and ERE with the GNU extensions) and Perl-style ones for grep and sed.
//
// A pattern is parsed here with GNU's rules and error messages, then
// translated into Go's regexp syntax (RE2, run in leftmost-longest mode as
// POSIX requires). Patterns that RE2 cannot express (back-references, \<
// and \> where they cannot be reduced to \b, repetition counts above 1000)
// and Perl patterns (-P) run on github.com/dlclark/regexp2, a backtracking
// engine. Character classes follow glibc's C.UTF-8 locale ([[:alpha:]]
// and \w include non-ASCII letters and digits).
//
// Known deviations from GNU regex:
//   - regexp2 is leftmost-first (Perl semantics), not leftmost-longest:
//     with back-references an alternation like \(a\|ab\)\1 may pick a
//     shorter overall match than GNU does. Whether a subject matches is
//     the same; only the extent of a match (grep -o, sed s///) can differ.
//   - RE2's \b and \B see only ASCII word characters. A pattern using them
//     (or \< \> reduced to \b) keeps a regexp2 twin with Unicode word
//     boundaries, used for subjects that are not pure ASCII; there the
//     leftmost-first rule above applies.
//   - A byte that is not valid UTF-8 is matched as U+FFFD by . and negated
//     brackets (GNU matches no character there). The C locale's
//     byte-per-character semantics are not modelled: text is UTF-8.
//   - Subexpression positions follow RE2's leftmost-longest rules, which
//     can differ from POSIX's subexpression rules in corner cases.
package posixre

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// Syntax selects the pattern language.
type Syntax int

const (
	BRE   Syntax = iota // POSIX basic regular expressions with GNU extensions (grep, sed)
	ERE                 // POSIX extended regular expressions (grep -E, sed -E)
	PCRE                // Perl-compatible (grep -P)
	Fixed               // a plain string (grep -F)
)

// Flags modify matching.
type Flags struct {
	IgnoreCase bool
	// Multiline makes ^ and $ match at embedded newlines too (sed -z, N).
	// \` and \' always match only at the ends of the subject.
	Multiline bool
	// Lines makes newline a line terminator that nothing matches (., [^x],
	// \s, \W exclude it), so that a search over a buffer of many lines can
	// never produce a match spanning two lines (grep's whole-buffer scan).
	Lines bool
}

// Regexp is a compiled expression. It is safe for concurrent use.
type Regexp struct {
	expr     string
	goRE     *regexp.Regexp
	netRE    *regexp2.Regexp
	nsub     int
	literal  string
	isLit    bool
	warnings []string
	must     string   // a string every match contains ("" if none known)
	mustAny  []string // strings one of which every match contains (nil if none known)
	mustAll  []string // strings each of which every match contains
	exact    []string // the strings the pattern matches, when a finite set
	icase    bool
	// inner is 1 for grep -w expressions: the match proper is group 1 and
	// the expression around it consumes the neighbouring characters.
	inner    int
	anchored bool       // grep -x
	word     *wordParts // grep -w
	kGroup   int        // PCRE \K: the group marking where the match starts
	bound    *bound     // nil until Bound
}

// Compile parses pattern in the given syntax. Errors are *Error values
// whose text is GNU's message ("Unmatched ( or \\(").
func Compile(pattern string, syn Syntax, fl Flags) (*Regexp, error) {
	if syn == PCRE {
		return compilePCRE(pattern, fl, ListOptions{})
	}
	tree, p, err := parseSyntax(pattern, syn)
	if err != nil {
		return nil, err
	}
	re := &Regexp{expr: pattern, nsub: p.ngroups, warnings: p.warnings, icase: fl.IgnoreCase}
	re.exact, re.mustAny = analyze(tree)
	re.mustAll = mustAll(tree)
	if len(re.mustAny) == 1 && !fl.IgnoreCase {
		re.must = re.mustAny[0]
	}
	if err := re.build(tree, p.backref, fl); err != nil {
		return nil, err
	}
	return re, nil
}

func parseSyntax(pattern string, syn Syntax) (*node, *parser, error) {
	if syn == Fixed {
		return literalNode(pattern), &parser{}, nil
	}
	return parse(pattern, syn == ERE)
}

// literalNode is the expression matching s literally.
func literalNode(s string) *node {
	var subs []*node
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		subs = append(subs, &node{kind: nLit, r: r, raw: []byte(s[i : i+n])})
		i += n
	}
	switch len(subs) {
	case 0:
		return &node{kind: nEmpty}
	case 1:
		return subs[0]
	}
	return &node{kind: nConcat, subs: subs}
}

// build chooses the engine for tree and compiles it.
func (re *Regexp) build(tree *node, backref bool, fl Flags) error {
	if !fl.IgnoreCase {
		if s, ok := literalOf(tree); ok && re.inner == 0 && !re.anchored {
			re.literal, re.isLit = s, true
		}
	}
	e := &emitter{fl: fl}
	needNet := backref || !e.resolve(tree)
	if !needNet {
		var b strings.Builder
		if fl.IgnoreCase {
			b.WriteString("(?i)")
		}
		if fl.Multiline {
			b.WriteString("(?m)")
		}
		e.emit(&b, tree)
		if !e.tooBig {
			g, err := regexp.Compile(b.String())
			if err == nil {
				g.Longest()
				re.goRE = g
				if !e.asciiB {
					return nil
				}
				// RE2's \b knows only ASCII word characters: keep a
				// regexp2 twin for subjects holding other characters.
				n, err := compileNet(tree, fl)
				if err != nil {
					return err
				}
				re.netRE = n
				return nil
			}
			if !strings.Contains(err.Error(), "invalid repeat count") && !strings.Contains(err.Error(), "expression too large") {
				return &Error{err.Error()}
			}
		}
	}
	n, err := compileNet(tree, fl)
	if err != nil {
		return err
	}
	re.netRE = n
	return nil
}

func compileNet(tree *node, fl Flags) (*regexp2.Regexp, error) {
	e := &emitter{fl: fl, dotnet: true}
	e.resolve(tree)
	var b strings.Builder
	e.emit(&b, tree)
	opts := regexp2.RegexOptions(0)
	if fl.IgnoreCase {
		opts |= regexp2.IgnoreCase
	}
	if fl.Multiline {
		opts |= regexp2.Multiline
	}
	n, err := regexp2.Compile(b.String(), opts)
	if err != nil {
		return nil, &Error{err.Error()}
	}
	return n, nil
}

// literalOf returns the text of a pattern made only of literal characters.
func literalOf(n *node) (string, bool) {
	switch n.kind {
	case nLit:
		return string(n.raw), true
	case nEmpty:
		return "", true
	case nSet:
		if r, ok := n.set.single(); ok {
			return string(r), true
		}
	case nConcat:
		var b strings.Builder
		for _, s := range n.subs {
			t, ok := literalOf(s)
			if !ok {
				return "", false
			}
			b.WriteString(t)
		}
		return b.String(), true
	}
	return "", false
}

// String returns the source text of the pattern.
func (re *Regexp) String() string { return re.expr }

// NumSubexp returns the number of parenthesized subexpressions.
func (re *Regexp) NumSubexp() int { return re.nsub }

// Literal returns the pattern's text when it is a plain string, matched
// case-sensitively, so that callers can use a fast substring search.
func (re *Regexp) Literal() (string, bool) { return re.literal, re.isLit }

// Warnings returns GNU grep's warnings about the pattern ("* at start of
// expression"), without the "warning: " prefix.
func (re *Regexp) Warnings() []string { return re.warnings }

// Backtracking reports whether the pattern may run on the backtracking
// engine (back-references, Perl syntax, word boundaries in text that is
// not ASCII). Such matching is slower and works on a decoded copy of the
// subject, so callers should hand it single lines rather than big buffers.
func (re *Regexp) Backtracking() bool { return re.netRE != nil }

// UsesBacktracking reports whether matching b runs the backtracking engine.
func (re *Regexp) UsesBacktracking(b []byte) bool { return re.useNet(b) }

func (re *Regexp) useNet(b []byte) bool {
	if re.goRE == nil {
		return true
	}
	return re.netRE != nil && !isASCII(b)
}

func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if (uint64(b[0])|uint64(b[1])<<8|uint64(b[2])<<16|uint64(b[3])<<24|
			uint64(b[4])<<32|uint64(b[5])<<40|uint64(b[6])<<48|uint64(b[7])<<56)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Match reports whether b contains a match.
func (re *Regexp) Match(b []byte) bool {
	if re.word != nil {
		return re.wordSearch(b, 0) != nil
	}
	if !re.useNet(b) {
		return re.goRE.Match(b)
	}
	runes, _ := decode(b)
	if re.bound.stopped() {
		return false
	}
	ok, err := re.netRE.MatchRunes(runes)
	re.bound.check(err)
	return ok && err == nil
}

// FindIndex returns the leftmost (longest, in the RE2 path) match.
func (re *Regexp) FindIndex(b []byte) []int {
	if re.inner == 0 && !re.useNet(b) {
		return re.goRE.FindIndex(b)
	}
	m := re.FindSubmatchIndex(b)
	if m == nil {
		return nil
	}
	return m[:2]
}

// FindSubmatchIndex returns the match and the positions of the
// subexpressions, as regexp.FindSubmatchIndex does (-1 for a
// subexpression that did not take part).
func (re *Regexp) FindSubmatchIndex(b []byte) []int {
	if re.word != nil {
		return re.wordSearch(b, 0)
	}
	m := re.rawSubmatch(b)
	if m == nil || re.inner == 0 {
		return m
	}
	return m[2*re.inner:]
}

func (re *Regexp) rawSubmatch(b []byte) []int {
	if !re.useNet(b) {
		return re.goRE.FindSubmatchIndex(b)
	}
	if re.bound.stopped() {
		return nil
	}
	runes, offs := decode(b)
	m, err := re.netRE.FindRunesMatch(runes)
	re.bound.check(err)
	if err != nil || m == nil {
		return nil
	}
	return re.netIndexes(m, offs)
}

func (re *Regexp) netIndexes(m *regexp2.Match, offs []int) []int {
	n := re.nsub + re.inner
	out := make([]int, 2*(n+1))
	for i := 0; i <= n; i++ {
		g := m.GroupByNumber(i)
		if g == nil || len(g.Captures) == 0 {
			out[2*i], out[2*i+1] = -1, -1
			continue
		}
		out[2*i] = offs[g.Index]
		out[2*i+1] = offs[g.Index+g.Length]
	}
	if re.kGroup > 0 {
		if g := m.GroupByNumber(re.kGroup); g != nil && len(g.Captures) > 0 {
			out[0] = offs[g.Index]
		}
	}
	return out
}

// FindAllIndex returns successive non-overlapping matches, as
// regexp.FindAllIndex does: an empty match right after a previous match is
// skipped. n < 0 means all.
func (re *Regexp) FindAllIndex(b []byte, n int) [][]int {
	if re.inner == 0 && !re.useNet(b) {
		return re.goRE.FindAllIndex(b, n)
	}
	var out [][]int
	for _, m := range re.FindAllSubmatchIndex(b, n) {
		out = append(out, m[:2])
	}
	return out
}

// FindAllSubmatchIndex is FindAllIndex with subexpression positions.
func (re *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	if re.inner != 0 {
		return re.findAllWords(b, n)
	}
	if !re.useNet(b) {
		return re.goRE.FindAllSubmatchIndex(b, n)
	}
	runes, offs := decode(b)
	var out [][]int
	pos, prevEnd := 0, -1
	for pos <= len(runes) && (n < 0 || len(out) < n) && !re.bound.stopped() {
		m, err := re.netRE.FindRunesMatchStartingAt(runes, pos)
		re.bound.check(err)
		if err != nil || m == nil {
			break
		}
		if m.Length == 0 && m.Index == prevEnd {
			// an empty match adjacent to the previous one: try one further
			if m.Index >= len(runes) {
				break
			}
			pos = m.Index + 1
			continue
		}
		out = append(out, re.netIndexes(m, offs))
		prevEnd = m.Index + m.Length
		if m.Length == 0 {
			pos = m.Index + 1
		} else {
			pos = prevEnd
		}
	}
	return out
}

// wordParts are the expressions behind grep -w. Each matches the pattern
// as group 1 with a non-word character or the end after it; first needs
// the start of the subject before it, rest a non-word character (which it
// consumes: a search from position p starts one character earlier). anch
// is the pattern anchored at the start of the subject.
type wordParts struct {
	first, rest, anch *Regexp
}

// wordSearch finds the first grep -w match at or after pos, as GNU grep
// does: the leftmost start where some match is a whole word, then the
// longest such match. An empty match counts only when it is the longest
// match at its start.
func (re *Regexp) wordSearch(b []byte, pos int) []int {
	w := re.word
	if pos == 0 {
		if m := w.first.rawSubmatch(b); m != nil {
			m = append([]int(nil), m[2:]...)
			if m[1] > m[0] || w.emptyOK(b, m[0]) {
				return m
			}
		}
	}
	base := 0
	if pos > 0 {
		_, size := utf8.DecodeLastRune(b[:pos])
		base = pos - size
	}
	for base < len(b) {
		m := w.rest.rawSubmatch(b[base:])
		if m == nil {
			return nil
		}
		o := base + m[0]
		res := append([]int(nil), m[2:]...)
		for i := range res {
			if res[i] >= 0 {
				res[i] += base
			}
		}
		if res[1] > res[0] || w.emptyOK(b, res[0]) {
			return res
		}
		_, size := utf8.DecodeRune(b[o:])
		base = o + size
	}
	return nil
}

// emptyOK reports whether the longest match at s is empty.
func (w *wordParts) emptyOK(b []byte, s int) bool {
	m := w.anch.FindIndex(b[s:])
	return m == nil || m[1] == 0
}

// findAllWords iterates the matches of a grep -w expression.
func (re *Regexp) findAllWords(b []byte, n int) [][]int {
	var out [][]int
	pos := 0
	for pos <= len(b) && (n < 0 || len(out) < n) {
		m := re.wordSearch(b, pos)
		if m == nil {
			break
		}
		if m[1] == m[0] {
			// an empty word match: skip a character
			if m[1] >= len(b) {
				break
			}
			_, size := utf8.DecodeRune(b[m[1]:])
			pos = m[1] + size
			continue
		}
		out = append(out, m)
		pos = m[1]
	}
	return out
}

// MustLiteral returns a string that every match contains, or "" when none
// is known (or case is ignored), for a fast pre-filter.
func (re *Regexp) MustLiteral() string { return re.must }

// MustAny returns strings one of which every match contains (as written:
// with IgnoreCase a match holds one of them up to case), or nil when no
// such set is known. grep uses it to pre-filter lines.
func (re *Regexp) MustAny() []string { return re.mustAny }

// MustAll returns strings that every match contains, all of them (as
// written: with IgnoreCase up to case); nil when none is known.
func (re *Regexp) MustAll() []string { return re.mustAll }

// Literals returns the finite set of strings the pattern matches when it
// is an alternation of plain strings (foo\|bar, (ab|cd)e), ignoring case
// and anchors: ok is false when the pattern has anchors, repetition,
// classes of more than a few characters, or is case-insensitive.
func (re *Regexp) Literals() ([]string, bool) {
	if re.exact == nil || re.inner != 0 || re.anchored || re.icase {
		return nil, false
	}
	return re.exact, true
}

// decode splits b into runes (a byte of invalid UTF-8 becomes U+FFFD) and
// the byte offset of each rune, plus len(b) at the end.
func decode(b []byte) ([]rune, []int) {
	runes := make([]rune, 0, len(b))
	offs := make([]int, 0, len(b)+1)
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			runes = append(runes, rune(c))
			offs = append(offs, i)
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		runes = append(runes, r)
		offs = append(offs, i)
		i += n
	}
	offs = append(offs, len(b))
	return runes, offs
}
