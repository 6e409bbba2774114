package interp

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Word expansion: a word's parts are expanded into fields made of
// segments, each quoted or not. Unquoted results of expansions are split
// on IFS; unquoted glob characters make a field a pathname pattern.

type seg struct {
	s      string
	quoted bool
}

type expandMode uint8

const (
	modeFields  expandMode = iota // command arguments: split and glob
	modeLiteral                   // one string, quotes removed
	modePattern                   // one string, quoted parts escaped for the pattern matcher
)

type expander struct {
	f    *frame
	mode expandMode
	ifs  string
	out  []string // finished fields
	// globFrom is the first field of out this expander made: the ones
	// before are finished words.
	globFrom int
	cur      []seg
	exists   bool // the current field exists even if empty (a quoted part)
	// emptyAt is set by a quoted @ expansion of no elements
	emptyAt bool
	assign  bool // an assignment's value: tilde expansion after colons
	// noArgAssign: a NAME=value word is not treated as an assignment
	noArgAssign bool
	err         bool
}

// fields expands command words into fields.
func (f *frame) fields(words []*syntax.Word) ([]string, bool) { return f.expandWords(words, true) }

// elemFields expands an element of an array assignment: a word like
// NAME=~ is not taken as an assignment there.
func (f *frame) elemFields(w *syntax.Word) ([]string, bool) {
	return f.expandWords([]*syntax.Word{w}, false)
}

// expandWords expands words into fields; argAssign says whether a word
// that looks like an assignment gets tilde expansion after = and colons.
func (f *frame) expandWords(words []*syntax.Word, argAssign bool) ([]string, bool) {
	return f.expandWordsInto(make([]string, 0, len(words)), words, argAssign)
}

// expandWordsInto is expandWords appending to out.
func (f *frame) expandWordsInto(out []string, words []*syntax.Word, argAssign bool) ([]string, bool) {
	var ok bool
	for _, w := range words {
		// Fast path: a plain literal word.
		if len(w.Parts) == 1 {
			if l, ok := w.Parts[0].(*syntax.Lit); ok && plainLit(l.Value) {
				out = append(out, l.Value)
				continue
			}
		}
		if strs, ok := f.literalBraces(w); ok {
			out = append(out, strs...)
			continue
		}
		if f.ctl != ctlNone {
			return nil, false
		}
		if !hasBraceLit(w) {
			if out, ok = f.expandFields(w, out, argAssign); !ok {
				return nil, false
			}
			continue
		}
		for _, bw := range f.braces(w) {
			if out, ok = f.expandFields(bw, out, argAssign); !ok {
				return nil, false
			}
		}
	}
	return out, true
}

// expandFields appends the fields of one word (after brace expansion).
func (f *frame) expandFields(w *syntax.Word, out []string, argAssign bool) ([]string, bool) {
	e := expander{f: f, mode: modeFields, ifs: f.ifs(), cur: f.takeSegs(), out: out, globFrom: len(out), noArgAssign: !argAssign}
	e.word(w)
	if e.err {
		return nil, false
	}
	e.endField(false)
	f.giveSegs(e.cur)
	e.cur = nil
	return e.globFields(), !e.err
}

// plainLit says whether a literal needs no processing: no escapes, no
// glob characters, no tilde, no braces.
func plainLit(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\', '*', '?', '~', '{':
			return false
		case '[':
			if strings.IndexByte(s[i:], ']') >= 0 {
				return false
			}
		}
	}
	return true
}

// literal expands a word into one string without splitting or globbing
// (assignments, redirection targets, case words, [[ ]] operands).
func (f *frame) literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if plainLit(p.Value) {
				return p.Value, true
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				return p.Value, true
			}
		}
	}
	e := expander{f: f, mode: modeLiteral, cur: f.takeSegs()}
	e.word(w)
	s := e.joined()
	f.giveSegs(e.cur)
	return s, !e.err
}

// patternOf expands a word as a pattern: quoted characters are escaped.
func (f *frame) patternOf(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	e := expander{f: f, mode: modePattern, cur: f.takeSegs()}
	e.word(w)
	s := e.joined()
	f.giveSegs(e.cur)
	return s, !e.err
}

func (e *expander) joined() string {
	if len(e.cur) == 1 && (e.mode != modePattern || !e.cur[0].quoted) {
		return e.cur[0].s
	}
	if e.mode != modePattern {
		return e.concat()
	}
	var b strings.Builder
	for _, s := range e.cur {
		if s.quoted {
			b.WriteString(quoteMeta(s.s))
		} else {
			b.WriteString(s.s)
		}
	}
	return b.String()
}

// concat joins the current segments in one allocation, checked against
// the memory budget when it is big ($x$x$x of a long x).
func (e *expander) concat() string {
	n := 0
	for _, s := range e.cur {
		n += len(s.s)
	}
	if n > bigString && !e.f.fitsBig(n) {
		e.err = true
		return ""
	}
	// one allocation: the builder is not handed to a closure, so it
	// stays on the stack
	var b strings.Builder
	b.Grow(n)
	for _, s := range e.cur {
		b.WriteString(s.s)
	}
	return b.String()
}

func (e *expander) add(s string, quoted bool) {
	if quoted {
		e.exists = true
	}
	if s == "" {
		return
	}
	e.exists = true
	e.cur = append(e.cur, seg{s, quoted})
}

// endField finishes the current field; force keeps it even when empty.
func (e *expander) endField(force bool) {
	if e.mode != modeFields {
		return
	}
	if !e.exists && !force {
		e.cur = e.cur[:0]
		return
	}
	e.out = append(e.out, e.fieldString())
	e.cur = e.cur[:0]
	e.exists = false
}

// fieldString joins the current field; a field with unquoted glob
// characters is kept as a pattern, marked for globbing.
func (e *expander) fieldString() string {
	glob := false
	if !e.f.opts.has(optNoglob) {
		for _, s := range e.cur {
			if !s.quoted && mayGlob(s.s) && hasGlobMeta(s.s, e.f.opts.has(optExtglob)) {
				glob = true
				break
			}
		}
	}
	if !glob {
		if len(e.cur) == 1 {
			return e.cur[0].s
		}
		return e.concat()
	}
	var b strings.Builder
	b.WriteString(globMark)
	for _, s := range e.cur {
		if s.quoted {
			b.WriteString(quoteMeta(s.s))
		} else {
			b.WriteString(s.s)
		}
	}
	return b.String()
}

// mayGlob is a cheap first test for glob characters: *, ?, a [ with a ]
// after it, or an extglob group.
func mayGlob(s string) bool {
	// a byte loop: strings.ContainsAny builds its set on every call, and
	// every expanded field passes here
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '(':
			return true
		case '[':
			return strings.IndexByte(s[i:], ']') >= 0
		}
	}
	return false
}

// globMark prefixes a field that is a pathname pattern; no field can
// start with it otherwise (it is not valid text a script can produce
// through quoting, since fields are only marked here and consumed in
// globFields).
const globMark = "\x00glob\x00"

func (e *expander) globFields() []string {
	out := e.out
	for i := e.globFrom; i < len(out); i++ {
		p, ok := strings.CutPrefix(out[i], globMark)
		if !ok {
			continue
		}
		matches, failed := e.f.glob(p)
		if failed {
			e.err = true
			return nil
		}
		if matches == nil {
			if e.f.opts.has(optNullglob) {
				out = append(out[:i], out[i+1:]...)
				i--
				continue
			}
			out[i] = unescapePattern(p)
			continue
		}
		rest := append([]string(nil), out[i+1:]...)
		out = append(append(out[:i], matches...), rest...)
		i += len(matches) - 1
	}
	return out
}

// assignValue expands the value of an assignment: one string, with
// tilde expansion also after each unquoted colon (PATH=~/bin:~/x).
func (f *frame) assignValue(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if plainLit(p.Value) {
				return p.Value, true
			}
		case *syntax.ArithmExp:
			// n=$((...)), a loop's counter: the number is the value
			n, ok := f.arith(p.X)
			if !ok {
				return "", false
			}
			return itoa64(n), true
		}
	}
	e := expander{f: f, mode: modeLiteral, assign: true, cur: f.takeSegs()}
	e.word(w)
	s := e.joined()
	f.giveSegs(e.cur)
	return s, !e.err
}

// assignPrefix says whether s starts with NAME=: bash expands tildes in
// such a command argument as in an assignment.
func assignPrefix(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	name := strings.TrimSuffix(s[:eq], "+")
	return syntax.ValidName(name)
}

// word expands all parts of w.
func (e *expander) word(w *syntax.Word) {
	argAssign := false
	if !e.assign && !e.noArgAssign && e.mode == modeFields && len(w.Parts) > 0 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && strings.IndexByte(l.Value, '~') > 0 && assignPrefix(l.Value) {
			argAssign = true
		}
	}
	for i, p := range w.Parts {
		if e.assign || argAssign {
			if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '~') >= 0 {
				e.assignLit(l.Value, i == 0 && e.assign, i == 0 && argAssign, i == len(w.Parts)-1)
				continue
			}
		}
		if i == 0 {
			if l, ok := p.(*syntax.Lit); ok && strings.HasPrefix(l.Value, "~") {
				e.tildeLit(l.Value, len(w.Parts) == 1)
				continue
			}
		}
		e.part(p, false)
		if e.err {
			return
		}
	}
}

// assignLit adds an unquoted literal of an assignment value, expanding
// a tilde prefix at its start (atStart), after its first = (afterEq, for
// an argument like NAME=~/x) and after each colon. A prefix runs to the
// next / or colon; one running into the next part of the word (last is
// false) is not a tilde prefix.
func (e *expander) assignLit(s string, atStart, afterEq, last bool) {
	start := 0
	eq := -1
	if afterEq {
		eq = strings.IndexByte(s, '=')
	}
	for p := 0; p < len(s); p++ {
		if s[p] != '~' || !(p == 0 && atStart || p > 0 && s[p-1] == ':' || p == eq+1 && eq >= 0) {
			continue
		}
		end := strings.IndexAny(s[p:], "/:")
		if end < 0 {
			if !last {
				break
			}
			end = len(s)
		} else {
			end += p
		}
		name := s[p+1 : end]
		if strings.IndexByte(name, '\\') >= 0 {
			continue
		}
		if dir, ok := e.f.tilde(name); ok {
			e.lit(s[start:p], false)
			e.add(dir, true)
			start = end
			p = end - 1
		}
	}
	e.lit(s[start:], false)
}

// tildeLit expands a leading ~ or ~user in an unquoted literal.
func (e *expander) tildeLit(s string, whole bool) {
	// the prefix runs to the first / or colon
	end := strings.IndexAny(s, "/:")
	if end < 0 {
		if !whole {
			// ~user followed by another part ("~$x") is not a tilde prefix
			e.lit(s, false)
			return
		}
		end = len(s)
	}
	if dir, ok := e.f.tilde(s[1:end]); ok {
		e.add(dir, true)
		e.lit(s[end:], false)
		return
	}
	e.lit(s, false)
}

func (e *expander) part(p syntax.WordPart, quoted bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		e.lit(p.Value, quoted)
	case *syntax.SglQuoted:
		if p.Dollar {
			e.add(ansiC(p.Value), true)
		} else {
			e.add(p.Value, true)
		}
	case *syntax.DblQuoted:
		// $"..." is "..." without a message catalogue. A quoted
		// "${a[@]}" of no elements makes no field, unlike "".
		// So does one whose other expansions are empty ("$e$@").
		prev, nCur, nOut := e.exists, len(e.cur), len(e.out)
		e.exists = true
		sawEmptyAt := false
		for _, q := range p.Parts {
			e.emptyAt = false
			e.part(q, true)
			if e.err {
				return
			}
			sawEmptyAt = sawEmptyAt || e.emptyAt
		}
		if sawEmptyAt && len(e.cur) == nCur && len(e.out) == nOut {
			e.exists = prev
		}
	case *syntax.ParamExp:
		e.param(p, quoted)
	case *syntax.CmdSubst:
		s, ok := e.f.cmdSubst(p.Stmts)
		if !ok {
			e.err = true
			return
		}
		e.value(s, quoted)
	case *syntax.ArithmExp:
		n, ok := e.f.arith(p.X)
		if !ok {
			e.err = true
			return
		}
		e.value(itoa64(n), quoted)
	case *syntax.ProcSubst:
		path, ok := e.f.procSubst(p)
		if !ok {
			e.err = true
			return
		}
		e.add(path, true)
	case *syntax.ExtGlob:
		e.add(p.Op.String()+p.Pattern.Value+")", false)
	case *syntax.BraceExp:
		// left when brace expansion did not apply
		e.add(braceText(p), false)
	default:
		e.f.errorf("unsupported word part %T", p)
		e.err = true
	}
}

// lit adds literal text, removing backslash escapes.
func (e *expander) lit(s string, quoted bool) {
	if strings.IndexByte(s, '\\') < 0 {
		e.add(s, quoted)
		return
	}
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			continue
		}
		c := s[i+1]
		if quoted && c != '$' && c != '`' && c != '"' && c != '\\' && c != '\n' {
			i++
			continue
		}
		e.add(s[start:i], quoted)
		if c != '\n' {
			e.add(s[i+1:i+2], true)
		}
		i++
		start = i + 1
	}
	e.add(s[start:], quoted)
}

// value adds the result of an expansion: unquoted, it is split on IFS.
func (e *expander) value(s string, quoted bool) {
	if quoted || e.mode != modeFields {
		if quoted {
			e.add(s, true)
		} else {
			e.add(s, false)
		}
		return
	}
	e.split(s)
}

// split adds s split on IFS into the current and new fields.
func (e *expander) split(s string) {
	ifs := e.ifs
	if ifs == "" {
		e.add(s, false)
		return
	}
	// sepAt is the length of the IFS character at s[i], 0 if none: a
	// multibyte IFS character is one separator
	sepAt := func(i int) int {
		if s[i] < utf8.RuneSelf {
			if strings.IndexByte(ifs, s[i]) >= 0 {
				return 1
			}
			return 0
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError && strings.ContainsRune(ifs, r) {
			return n
		}
		return 0
	}
	i := 0
	for i < len(s) {
		if sepAt(i) == 0 {
			j := i + 1
			for j < len(s) && sepAt(j) == 0 {
				j++
			}
			e.add(s[i:j], false)
			i = j
			continue
		}
		// a separator: IFS white space around at most one other IFS char
		j := i
		for j < len(s) && isIFSWhite(s[j]) && sepAt(j) > 0 {
			j++
		}
		hard := false
		if j < len(s) && !isIFSWhite(s[j]) {
			if n := sepAt(j); n > 0 {
				hard = true
				j += n
				for j < len(s) && isIFSWhite(s[j]) && sepAt(j) > 0 {
					j++
				}
			}
		}
		e.endField(hard)
		i = j
	}
}

func isIFSWhite(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// ifs is $IFS, or its default when unset.
func (f *frame) ifs() string {
	v := f.lookupVar("IFS")
	if v == nil || !v.set {
		return " \t\n"
	}
	s, _ := v.value()
	return s
}

func braceText(b *syntax.BraceExp) string {
	var sb strings.Builder
	sb.WriteByte('{')
	sep := ","
	if b.Sequence {
		sep = ".."
	}
	for i, w := range b.Elems {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(wordText(w))
	}
	sb.WriteByte('}')
	return sb.String()
}

// wordText prints a word back as source.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}
