package interp

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// set -x: each command is printed to BASH_XTRACEFD (else stderr) after
// its expansions, behind PS4, expanded, whose first character repeats
// once per level of eval, source, trap or command substitution.

var ps4Cache sync.Map // PS4 text -> *syntax.Word

// tracePrefix expands PS4 for one trace line.
func (f *frame) tracePrefix() string {
	ps4, ok := f.getVar("PS4")
	if !ok || ps4 == "" {
		return ""
	}
	if strings.ContainsAny(ps4, "$`\\") {
		w, ok := ps4Cache.Load(ps4)
		if !ok {
			pw, err := syntax.NewParser().Document(strings.NewReader(ps4))
			if err != nil {
				pw = nil
			}
			w, _ = ps4Cache.LoadOrStore(ps4, pw)
		}
		if pw, _ := w.(*syntax.Word); pw != nil {
			// PS4's expansions are not traced themselves
			f.opts.put(optXtrace, false)
			s, ok := f.literal(pw)
			f.opts.put(optXtrace, true)
			if ok {
				ps4 = s
			}
		}
	}
	if ps4 == "" {
		return ""
	}
	if f.traceLevel > 0 {
		_, n := utf8.DecodeRuneInString(ps4)
		ps4 = strings.Repeat(ps4[:n], f.traceLevel) + ps4
	}
	return ps4
}

// traceLine prints one line of set -x.
func (f *frame) traceLine(text string) {
	fd := 2
	if v, ok := f.getVar("BASH_XTRACEFD"); ok && v != "" {
		if n, err := parseDecimal(v); err == nil && f.fds.get(int(n)) != nil {
			fd = int(n)
		}
	}
	line := f.tracePrefix() + text + "\n"
	if fd == 2 && f.traceOut != nil && f.traceOut.w != nil {
		io.WriteString(f.traceOut.w, line)
	} else {
		f.fds.writeString(fd, line)
	}
	if f.onTraced != nil {
		f.onTraced()
	}
}

// trace prints a simple command's words.
func (f *frame) trace(args []string) {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(traceQuote(a))
	}
	f.traceLine(b.String())
}

// traceAssigns prints the assignments of a command, with their values.
func (f *frame) traceAssigns(as []*syntax.Assign) {
	for _, a := range as {
		f.traceAssign(a)
	}
}

func (f *frame) traceAssign(a *syntax.Assign) {
	name := a.Name.Value
	op := "="
	if a.Append {
		op = "+="
	}
	if a.Array != nil {
		// bash shows a compound assignment's elements as written
		var b strings.Builder
		for i, el := range a.Array.Elems {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f.sourceText(el, printNode(el)))
		}
		f.traceLine(name + op + "(" + b.String() + ")")
		return
	}
	if a.Index != nil {
		name += "[" + arithText(a.Index) + "]"
		v, _ := f.fetch(a.Name.Value, a.Index)
		f.traceLine(name + op + traceValue(v.s))
		return
	}
	val, _ := f.getVar(name)
	f.traceLine(name + op + traceValue(val))
}

// traceValue quotes an assigned value: nothing for an empty one.
func traceValue(s string) string {
	if s == "" {
		return ""
	}
	return traceQuote(s)
}

// traceQuote quotes a word as set -x shows it: single quotes around a
// word with shell metacharacters, $'...' around one with other control
// characters.
func traceQuote(s string) string {
	if s == "" {
		return "''"
	}
	if hasShellMetas(s) {
		return singleQuoteAlways(s)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return ansiQuote(s)
		}
	}
	if !utf8.ValidString(s) {
		return ansiQuote(s)
	}
	return s
}

// hasShellMetas is bash's sh_contains_shell_metas.
func hasShellMetas(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}',
			'*', '[', '?', ']', '^', '$', '`':
			return true
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return true
			}
		case '#':
			if i == 0 {
				return true
			}
		}
	}
	return false
}

func printNode(n syntax.Node) string {
	var b strings.Builder
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n)
	return b.String()
}

// sourceText is n as written in the source being run, else fallback.
func (f *frame) sourceText(n syntax.Node, fallback string) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < end && end <= len(f.src) {
		t := f.src[start:end]
		if !strings.Contains(t, "\n") {
			return t
		}
	}
	return fallback
}

// traceArith prints (( expr )) as bash does: the text between the
// parentheses as written, padded by a space on each side.
func (f *frame) traceArith(c *syntax.ArithmCmd) {
	start, end := int(c.Left.Offset())+2, int(c.Right.Offset())
	text := " " + arithText(c.X) + " "
	if start <= end && end <= len(f.src) && strings.HasPrefix(f.src[start-2:], "((") {
		text = f.src[start:end]
	}
	f.traceLine("(( " + text + " ))")
}

// traceHeader prints a for or select header as written.
func (f *frame) traceHeader(kw string, name string, items []*syntax.Word, in bool) {
	f.traceLine(f.headerText(kw, name, items, in))
}

func (f *frame) headerText(kw string, name string, items []*syntax.Word, in bool) string {
	var b strings.Builder
	b.WriteString(kw)
	b.WriteByte(' ')
	b.WriteString(name)
	if in {
		b.WriteString(" in")
	}
	for _, w := range items {
		b.WriteByte(' ')
		b.WriteString(f.sourceText(w, printNode(w)))
	}
	return b.String()
}

// traceTest prints one primary of [[ ]] with its expanded operands.
func (f *frame) traceTest(parts ...string) {
	neg := ""
	if f.traceNot {
		neg = "! "
		f.traceNot = false
	}
	f.traceLine("[[ " + neg + strings.Join(parts, " ") + " ]]")
}

// patternTrace expands a [[ ]] pattern: the pattern for the matcher and
// the text set -x shows, where each quoted character is escaped.
func (f *frame) patternTrace(w *syntax.Word) (pat, shown string, ok bool) {
	if w == nil {
		return "", "", true
	}
	e := expander{f: f, mode: modePattern}
	e.word(w)
	if e.err {
		return "", "", false
	}
	var b strings.Builder
	for _, s := range e.cur {
		if !s.quoted {
			b.WriteString(s.s)
			continue
		}
		for _, r := range s.s {
			b.WriteByte('\\')
			b.WriteRune(r)
		}
	}
	return e.joined(), b.String(), true
}

// traceDecl prints a declaration with its assignments' values; export
// and readonly show each assignment again, as bash does.
func (f *frame) traceDecl(kind string, args []declArg) {
	words := []string{kind}
	var again []string
	for _, a := range args {
		if a.as == nil {
			words = append(words, a.text)
			continue
		}
		name := a.as.Name.Value
		if a.as.Naked || a.as.Array != nil {
			words = append(words, name)
			continue
		}
		val, _ := f.getVar(name)
		words = append(words, name+"="+val)
		if kind == "export" || kind == "readonly" {
			again = append(again, name+"="+traceValue(val))
		}
	}
	f.trace(words)
	for _, l := range again {
		f.traceLine(l)
	}
}

// tracesItself says whether cmd prints its own trace line before its
// redirections apply (simple commands and the like).
func tracesItself(cmd syntax.Command) bool {
	switch cmd.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause, *syntax.TestClause, *syntax.ArithmCmd:
		return true
	}
	return false
}
