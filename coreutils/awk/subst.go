package awk

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// sub and gsub on long targets. goawk's own sub and gsub run to the end
// of the string without looking at the call's context, go on matching
// after sub's one replacement, and build the result in buffers nobody
// charges: a string doubled by gsub a few times kept a core busy for
// seconds past the call's deadline and its memory budget. Targets of
// sizedMin bytes or more are therefore substituted here (the rewrite
// picks the path by the target's length): the work checks the context
// every few thousand matches, and the result is charged to the memory
// budget as its buffer grows, so that a result past the budget is never
// built. Shorter targets keep goawk's code, which is faster on them.
// gensub (which goawk lacks) always runs here.
//
// The result is what goawk's sub and gsub give (Go's ReplaceAllString
// rules for empty matches, goawk's handling of & and \ in the
// replacement); unlike goawk, and like gawk, a target with no match is
// left as it was (not converted to a string).

// subRegex is a compiled sub/gsub pattern.
type subRegex struct {
	full *regexp.Regexp // for matches from the start of the target
	// tail is full for matches from a later position: searching the rest
	// of the target, ^ (start of text) must not match there.
	tail *regexp.Regexp
	// after, for patterns that look at the character before a match
	// position (a line start in (?m) mode, \b, \B), is one character
	// followed by the pattern (group 1): searched from the character
	// before a position, it sees that character.
	after *regexp.Regexp
	// literal is the text the pattern matches when it matches only that
	// (the common gsub(/,/, " ")): found with strings.Index.
	literal string
}

// maxSubRegexes bounds the cache of compiled patterns.
const maxSubRegexes = 100

// subCheckEvery is how many matches pass between two looks at the
// context.
const subCheckEvery = 4096

func (rt *runtime) subRegex(pattern string) (*subRegex, error) {
	if r, ok := rt.subRegexes[pattern]; ok {
		return r, nil
	}
	// goawk compiles patterns with the same flag: . matches a newline.
	expr := "(?s:" + pattern + ")"
	full, err := regexp.Compile(expr)
	if err != nil {
		return nil, &fatalError{"invalid regex " + quoteGo(pattern) + ": " + err.Error()}
	}
	r := &subRegex{full: full, tail: full}
	if lit, complete := full.LiteralPrefix(); complete && lit != "" {
		r.literal = lit
	} else if tree, err := syntax.Parse(expr, syntax.Perl); err == nil {
		startsText, context := false, false
		walkSyntax(tree, func(n *syntax.Regexp) {
			switch n.Op {
			case syntax.OpBeginLine, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
				context = true
			case syntax.OpBeginText:
				startsText = true
				n.Op = syntax.OpNoMatch
			}
		})
		switch {
		case context:
			r.after, err = regexp.Compile("(?s:.)(" + expr + ")")
		case startsText:
			r.tail, err = regexp.Compile(tree.String())
		}
		if err != nil {
			return nil, &fatalError{"invalid regex " + quoteGo(pattern) + ": " + err.Error()}
		}
	}
	if rt.subRegexes == nil {
		rt.subRegexes = map[string]*subRegex{}
	}
	if len(rt.subRegexes) < maxSubRegexes {
		rt.subRegexes[pattern] = r
	}
	return r, nil
}

func walkSyntax(n *syntax.Regexp, f func(*syntax.Regexp)) {
	f(n)
	for _, s := range n.Sub {
		walkSyntax(s, f)
	}
}

// quoteGo quotes s as goawk's error messages do (%q).
func quoteGo(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// replacement is a replacement text as pieces: text, or a group of the
// match (0 the whole match, & in sub and gsub).
type replacement []piece

type piece struct {
	text  string
	group int // -1: text
}

// parseReplacement splits a sub/gsub replacement with goawk's escapes
// (\& is &, \\ is \, other backslashes stay).
func parseReplacement(repl string) replacement {
	var r replacement
	var cur []byte
	for i := 0; i < len(repl); i++ {
		switch c := repl[i]; c {
		case '&':
			r = append(r, piece{string(cur), -1}, piece{group: 0})
			cur = cur[:0]
		case '\\':
			i++
			switch {
			case i >= len(repl):
				cur = append(cur, '\\')
			case repl[i] == '&' || repl[i] == '\\':
				cur = append(cur, repl[i])
			default:
				cur = append(cur, '\\', repl[i])
			}
		default:
			cur = append(cur, c)
		}
	}
	return append(r, piece{string(cur), -1})
}

// parseGensubReplacement splits a gensub replacement: \N is group N
// (\0 and & the match), \& is &, \\ is \.
func parseGensubReplacement(repl string) replacement {
	var r replacement
	var cur []byte
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c == '\\' && i+1 < len(repl) && repl[i+1] >= '0' && repl[i+1] <= '9':
			r = append(r, piece{string(cur), -1}, piece{group: int(repl[i+1] - '0')})
			cur = cur[:0]
			i++
		case c == '\\' && i+1 < len(repl) && (repl[i+1] == '&' || repl[i+1] == '\\'):
			cur = append(cur, repl[i+1])
			i++
		case c == '&':
			r = append(r, piece{string(cur), -1}, piece{group: 0})
			cur = cur[:0]
		default:
			cur = append(cur, c)
		}
	}
	return append(r, piece{string(cur), -1})
}

// groups reports whether the replacement uses a group beyond the match.
func (r replacement) groups() bool {
	for _, p := range r {
		if p.group > 0 {
			return true
		}
	}
	return false
}

// size is the replacement's length for the match at loc in in.
func (r replacement) size(in string, loc []int) int {
	n := 0
	for _, p := range r {
		if p.group < 0 {
			n += len(p.text)
		} else if 2*p.group+1 < len(loc) && loc[2*p.group] >= 0 {
			n += loc[2*p.group+1] - loc[2*p.group]
		}
	}
	return n
}

func (r replacement) write(b *strings.Builder, in string, loc []int) {
	for _, p := range r {
		if p.group < 0 {
			b.WriteString(p.text)
		} else if 2*p.group+1 < len(loc) && loc[2*p.group] >= 0 {
			b.WriteString(in[loc[2*p.group]:loc[2*p.group+1]])
		}
	}
}

// substitute implements sub (global 0) and gsub (global 1) of pattern by
// repl in target: it returns the number of replacements and keeps the
// new text for subResult.
func (rt *runtime) substitute(global int, pattern, repl, target string) (int, error) {
	rt.subOut = ""
	re, err := rt.subRegex(pattern)
	if err != nil {
		return 0, err
	}
	s := &substitution{rt: rt, global: global != 0, nth: 1, repl: parseReplacement(repl), in: target}
	n, err := s.run(re)
	if err != nil || n == 0 {
		return 0, err
	}
	rt.subOut = s.result
	return n, nil
}

// gensub(regex, replacement, how, target) returns target with the
// matches replaced ("g" or "G": all, N: the Nth), built as sub and gsub
// on long targets are.
func (rt *runtime) gensub(pattern, repl, how, target string) (string, error) {
	re, err := rt.subRegex(pattern)
	if err != nil {
		return "", &fatalError{"gensub: invalid regexp: " + pattern}
	}
	s := &substitution{rt: rt, nth: 1, repl: parseGensubReplacement(repl), in: target}
	if how != "" && (how[0] == 'g' || how[0] == 'G') {
		s.global = true
	} else if n, err := strconv.ParseFloat(strings.TrimSpace(how), 64); err == nil && n >= 1 {
		s.nth = int(min(n, 1<<40))
	} else {
		rt.out.Flush()
		fmt.Fprintf(rt.stderr, "%s: %swarning: gensub: third argument `%s' treated as 1\n", rt.c.Name(), rt.loc, how)
	}
	n, err := s.run(re)
	if err != nil || n == 0 {
		return target, err
	}
	return s.result, nil
}

// subResult hands over the text substitute built.
func (rt *runtime) subResult() string {
	out := rt.subOut
	rt.subOut = ""
	return out
}

// dueCheck brings the next check forward (returns the new __bb_c for the
// steps left, left) when strings built since the last one are charged
// past checkInput.
func (rt *runtime) dueCheck(left int) int {
	if rt.pending > checkInput {
		return rt.soon(left)
	}
	return left
}

type substitution struct {
	rt      *runtime
	global  bool
	nth     int // without global: the match replaced
	repl    replacement
	in      string
	out     strings.Builder
	result  string
	matches int
}

// reserve makes room for n more bytes of output, charging the buffer's
// growth (each new buffer whole: the old one is garbage until collected).
func (s *substitution) reserve(n int) error {
	if s.out.Cap()-s.out.Len() >= n {
		return nil
	}
	s.out.Grow(n)
	return s.rt.charge(s.out.Cap())
}

// tick counts a match and looks at the context every subCheckEvery.
func (s *substitution) tick() error {
	s.matches++
	if s.matches%subCheckEvery == 0 {
		return s.rt.ctx.Err()
	}
	return nil
}

// run follows Go's replaceAll loop (what goawk's gsub uses), searching
// the rest of the target from each position.
func (s *substitution) run(re *subRegex) (int, error) {
	in := s.in
	if re.literal != "" && s.global && !s.repl.groups() {
		// The result's size is known before it is built: charge it whole.
		count := strings.Count(in, re.literal)
		if count == 0 {
			return 0, nil
		}
		if err := s.reserve(len(in) + count*(s.repl.size(re.literal, []int{0, len(re.literal)})-len(re.literal))); err != nil {
			return 0, err
		}
	}
	groups := s.repl.groups()
	literal := re.literal
	if groups {
		literal = "" // a literal's groups are found by the regexp
	}
	seen, count := 0, 0 // matches found (gensub's N counts them), replaced
	// last is where the last match ended (Go's rule for empty matches),
	// copied how much of the target the result holds.
	last, copied, pos := 0, 0, 0
	for pos <= len(in) {
		var loc []int
		if literal != "" {
			i := strings.Index(in[pos:], literal)
			if i < 0 {
				break
			}
			loc = []int{pos + i, pos + i + len(literal)}
		} else {
			var err error
			if loc, err = s.find(re, pos, groups); err != nil {
				return 0, err
			}
			if loc == nil {
				break
			}
		}
		a0, a1 := loc[0], loc[1]
		if err := s.tick(); err != nil {
			return 0, err
		}
		// An empty match right after a match does not count.
		if a1 > last || a0 == 0 {
			seen++
			if s.global || seen == s.nth {
				need := a0 - copied + s.repl.size(in, loc)
				if count == 0 {
					// The result is about the target's length at least:
					// its buffer is made once a match is found.
					need = max(need, len(in))
				}
				if err := s.reserve(need); err != nil {
					return 0, err
				}
				s.out.WriteString(in[copied:a0])
				s.repl.write(&s.out, in, loc)
				count++
				copied = a1
				if !s.global {
					break
				}
			}
		}
		last = a1
		// Advance past the match, at least one character.
		_, width := utf8.DecodeRuneInString(in[pos:])
		switch {
		case pos+width > a1:
			pos += width
		case pos+1 > a1:
			pos++
		default:
			pos = a1
		}
	}
	if count == 0 {
		return 0, nil
	}
	if err := s.reserve(len(in) - copied); err != nil {
		return 0, err
	}
	s.out.WriteString(in[copied:])
	s.result = s.out.String()
	return count, nil
}

// readerFrom is the length from which a search reads the text through a
// ctxReader: one search of a long text (x+ over a string of a hundred
// mebibytes) takes seconds, which Go's regexp gives no way to stop.
const readerFrom = 64 << 10

// find returns the next match at or after pos (with the groups' bounds
// when groups), stopped by the context.
func (s *substitution) find(re *subRegex, pos int, groups bool) ([]int, error) {
	text, r, from := s.in[pos:], re.tail, pos
	switch {
	case pos == 0:
		r = re.full
	case re.after != nil:
		_, w := utf8.DecodeLastRuneInString(s.in[:pos])
		text, r, from = s.in[pos-w:], re.after, pos-w
	}
	subs := groups || r == re.after
	var loc []int
	if len(text) < readerFrom {
		if subs {
			loc = r.FindStringSubmatchIndex(text)
		} else {
			loc = r.FindStringIndex(text)
		}
	} else {
		cr := &ctxReader{ctx: s.rt.ctx, s: text}
		if subs {
			loc = r.FindReaderSubmatchIndex(cr)
		} else {
			loc = r.FindReaderIndex(cr)
		}
		if cr.err != nil {
			return nil, cr.err
		}
	}
	if loc == nil {
		return nil, nil
	}
	if r == re.after {
		loc = loc[2:]
	}
	for i, v := range loc {
		if v >= 0 {
			loc[i] = from + v
		}
	}
	return loc, nil
}

// ctxReader reads a string rune by rune, as Go's regexp reads a
// RuneReader, and ends the text early once the context is done (the
// search's result is then dropped).
type ctxReader struct {
	ctx context.Context
	s   string
	i   int
	n   int
	err error
}

func (r *ctxReader) ReadRune() (rune, int, error) {
	if r.i >= len(r.s) {
		return 0, 0, io.EOF
	}
	r.n++
	if r.n%(16<<10) == 0 {
		if err := r.ctx.Err(); err != nil {
			r.err = err
			return 0, 0, io.EOF
		}
	}
	if c := r.s[r.i]; c < utf8.RuneSelf {
		r.i++
		return rune(c), 1, nil
	}
	c, size := utf8.DecodeRuneInString(r.s[r.i:])
	r.i += size
	return c, size, nil
}
