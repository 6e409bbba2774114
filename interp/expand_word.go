package interp

import (
	"strings"

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
	f      *frame
	mode   expandMode
	ifs    string
	out    []string // finished fields
	cur    []seg
	exists bool // the current field exists even if empty (a quoted part)
	err    bool
}

// fields expands command words into fields.
func (f *frame) fields(words []*syntax.Word) ([]string, bool) {
	out := make([]string, 0, len(words))
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
		for _, bw := range f.braces(w) {
			e := expander{f: f, mode: modeFields, ifs: f.ifs()}
			e.word(bw)
			if e.err {
				return nil, false
			}
			e.endField(false)
			for _, fld := range e.globFields() {
				out = append(out, fld)
			}
			if e.err {
				return nil, false
			}
		}
	}
	return out, true
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
	e := expander{f: f, mode: modeLiteral}
	e.word(w)
	return e.joined(), !e.err
}

// patternOf expands a word as a pattern: quoted characters are escaped.
func (f *frame) patternOf(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	e := expander{f: f, mode: modePattern}
	e.word(w)
	return e.joined(), !e.err
}

func (e *expander) joined() string {
	if len(e.cur) == 1 && (e.mode != modePattern || !e.cur[0].quoted) {
		return e.cur[0].s
	}
	var b strings.Builder
	if !e.joinFits(&b) {
		return ""
	}
	for _, s := range e.cur {
		if e.mode == modePattern && s.quoted {
			b.WriteString(quoteMeta(s.s))
		} else {
			b.WriteString(s.s)
		}
	}
	return b.String()
}

// joinFits sizes b for the current segments joined, once the memory
// budget has room for them: a large join (x=$x$x) trips the budget
// before it allocates, instead of after, and never regrows.
func (e *expander) joinFits(b *strings.Builder) bool {
	n := 0
	for _, s := range e.cur {
		n += len(s.s)
	}
	if n > 1<<16 && !e.f.call.sh.Budget.fits(int64(n)) {
		e.err = true
		e.f.stopped()
		return false
	}
	b.Grow(n)
	return true
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
		var b strings.Builder
		if !e.joinFits(&b) {
			return ""
		}
		for _, s := range e.cur {
			b.WriteString(s.s)
		}
		return b.String()
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
	if strings.ContainsAny(s, "*?(") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i:], ']') >= 0
}

// globMark prefixes a field that is a pathname pattern; no field can
// start with it otherwise (it is not valid text a script can produce
// through quoting, since fields are only marked here and consumed in
// globFields).
const globMark = "\x00glob\x00"

func (e *expander) globFields() []string {
	out := e.out
	for i := 0; i < len(out); i++ {
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

// word expands all parts of w.
func (e *expander) word(w *syntax.Word) {
	for i, p := range w.Parts {
		if i == 0 {
			if l, ok := p.(*syntax.Lit); ok && strings.HasPrefix(l.Value, "~") && e.mode != modePattern {
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

// tildeLit expands a leading ~ or ~user in an unquoted literal.
func (e *expander) tildeLit(s string, whole bool) {
	name, rest, hasSlash := strings.Cut(s[1:], "/")
	if !hasSlash && !whole {
		// ~user followed by another part ("~$x") is not a tilde prefix
		e.lit(s, false)
		return
	}
	if dir, ok := e.f.tilde(name); ok {
		e.add(dir, true)
		if hasSlash {
			e.lit("/"+rest, false)
		}
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
			s, _, _ := unescape(p.Value, true)
			e.add(s, true)
		} else {
			e.add(p.Value, true)
		}
	case *syntax.DblQuoted:
		e.exists = true
		if p.Dollar && len(p.Parts) == 1 { // $"..." is "..." without a catalogue
		}
		for _, q := range p.Parts {
			e.part(q, true)
			if e.err {
				return
			}
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
	i := 0
	for i < len(s) {
		if strings.IndexByte(ifs, s[i]) < 0 {
			j := i
			for j < len(s) && strings.IndexByte(ifs, s[j]) < 0 {
				j++
			}
			e.add(s[i:j], false)
			i = j
			continue
		}
		// a separator: IFS white space around at most one other IFS char
		j := i
		for j < len(s) && isIFSWhite(s[j]) && strings.IndexByte(ifs, s[j]) >= 0 {
			j++
		}
		hard := false
		if j < len(s) && strings.IndexByte(ifs, s[j]) >= 0 && !isIFSWhite(s[j]) {
			hard = true
			j++
			for j < len(s) && isIFSWhite(s[j]) && strings.IndexByte(ifs, s[j]) >= 0 {
				j++
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
