// Package posixre implements GNU-compatible POSIX regular expressions (BRE
// and ERE with the GNU extensions) and Perl-style ones for grep and sed.
//
// A pattern is parsed here with GNU's rules and error messages, then
// translated into Go's regexp syntax (RE2, run in leftmost-longest mode as
// POSIX requires). Patterns that RE2 cannot express (back-references, \<
// and \> where they cannot be reduced to \b, repetition counts above 1000)
// and Perl patterns (-P) run on github.com/dlclark/regexp2, a backtracking
// engine.
//
// Known deviations from GNU regex:
//   - regexp2 is leftmost-first (Perl semantics), not leftmost-longest:
//     with back-references, an alternation like \(a\|ab\)\1 may pick a
//     shorter overall match than GNU does. Matching lines are the same;
//     only the extent of a match (grep -o, sed s///) can differ.
//   - In the RE2 path \b and \B (and \< \> reduced to \b) use ASCII word
//     characters; \w, \W and [[:alpha:]] are Unicode-aware like glibc's
//     C.UTF-8 locale.
//   - A byte that is not valid UTF-8 is matched as U+FFFD by . and negated
//     brackets (GNU matches no character there).
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
	BRE  Syntax = iota // POSIX basic regular expressions with GNU extensions (grep, sed)
	ERE                // POSIX extended regular expressions (grep -E, sed -E)
	PCRE               // Perl-compatible (grep -P)
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
}

// Compile parses pattern in the given syntax. Errors are *Error values
// whose text is GNU's message ("Unmatched ( or \(").
func Compile(pattern string, syn Syntax, fl Flags) (*Regexp, error) {
	if syn == PCRE {
		return compilePCRE(pattern, fl)
	}
	tree, p, err := parse(pattern, syn == ERE)
	if err != nil {
		return nil, err
	}
	re := &Regexp{expr: pattern, nsub: p.ngroups, warnings: p.warnings}
	if !fl.IgnoreCase {
		if s, ok := literalOf(tree); ok {
			re.literal, re.isLit = s, true
		}
	}
	e := &emitter{fl: fl}
	needNet := p.backref || !e.resolve(tree)
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
				return re, nil
			}
			if !strings.Contains(err.Error(), "invalid repeat count") && !strings.Contains(err.Error(), "expression too large") {
				return nil, &Error{errTooBig}
			}
		}
	}
	e = &emitter{fl: fl, dotnet: true}
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
		return nil, &Error{errTooBig}
	}
	re.netRE = n
	return re, nil
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

// Backtracking reports whether the pattern runs on the backtracking engine
// (back-references, Perl syntax).
func (re *Regexp) Backtracking() bool { return re.netRE != nil }

// Match reports whether b contains a match.
func (re *Regexp) Match(b []byte) bool {
	if re.goRE != nil {
		return re.goRE.Match(b)
	}
	runes, _ := decode(b)
	ok, err := re.netRE.MatchRunes(runes)
	return ok && err == nil
}

// FindIndex returns the leftmost (longest, in the RE2 path) match.
func (re *Regexp) FindIndex(b []byte) []int {
	if re.goRE != nil {
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
	if re.goRE != nil {
		return re.goRE.FindSubmatchIndex(b)
	}
	runes, offs := decode(b)
	m, err := re.netRE.FindRunesMatch(runes)
	if err != nil || m == nil {
		return nil
	}
	return re.netIndexes(m, offs)
}

func (re *Regexp) netIndexes(m *regexp2.Match, offs []int) []int {
	out := make([]int, 2*(re.nsub+1))
	for i := 0; i <= re.nsub; i++ {
		g := m.GroupByNumber(i)
		if g == nil || len(g.Captures) == 0 {
			out[2*i], out[2*i+1] = -1, -1
			continue
		}
		out[2*i] = offs[g.Index]
		out[2*i+1] = offs[g.Index+g.Length]
	}
	return out
}

// FindAllIndex returns successive non-overlapping matches, as
// regexp.FindAllIndex does: an empty match right after a previous match is
// skipped. n < 0 means all.
func (re *Regexp) FindAllIndex(b []byte, n int) [][]int {
	if re.goRE != nil {
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
	if re.goRE != nil {
		return re.goRE.FindAllSubmatchIndex(b, n)
	}
	runes, offs := decode(b)
	var out [][]int
	pos, prevEnd := 0, -1
	for pos <= len(runes) && (n < 0 || len(out) < n) {
		m, err := re.netRE.FindRunesMatchStartingAt(runes, pos)
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
