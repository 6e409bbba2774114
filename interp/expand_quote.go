package interp

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Quoting inside ${...}: the word of ${x:-word} and the replacement of
// ${x/p/r} follow rules of their own, different inside and outside double
// quotes.

// paramWord expands the word of ${x-w} ${x:-w} ${x+w} ${x:+w} straight
// into the current field, so that its quoted parts stay unsplit and its
// unquoted expansions split with the rest ("${u:-$@}" gives the
// positional parameters as separate fields). Inside double quotes, bash
// keeps single quotes of the word as text and does no tilde expansion.
func (e *expander) paramWord(w *syntax.Word, quoted bool) {
	if w == nil {
		return
	}
	if !quoted {
		// unquoted, the word's literal text splits too (${u:-a b})
		for i, p := range w.Parts {
			l, ok := p.(*syntax.Lit)
			switch {
			case !ok:
				e.part(p, false)
			case i == 0 && strings.HasPrefix(l.Value, "~"):
				e.tildeLit(l.Value, len(w.Parts) == 1)
			default:
				e.litSplit(l.Value)
			}
			if e.err {
				return
			}
		}
		return
	}
	e.exists = true
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			e.dqLit(p.Value, true)
		case *syntax.SglQuoted:
			if p.Dollar {
				s := ansiC(p.Value)
				e.add(s, true)
			} else {
				// the quotes are plain characters here: what they
				// enclose is expanded as in double quotes
				e.add("'", true)
				if !e.document(p.Value) {
					return
				}
				e.add("'", true)
			}
		default:
			e.part(p, true)
		}
		if e.err {
			return
		}
	}
}

// litSplit adds unquoted literal text that is subject to splitting:
// backslash escapes are quoted characters, the rest splits on IFS.
func (e *expander) litSplit(s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			continue
		}
		e.value(s[start:i], false)
		if s[i+1] != '\n' {
			e.add(s[i+1:i+2], true)
		}
		i++
		start = i + 1
	}
	e.value(s[start:], false)
}

// dqLit adds text of a word inside a double-quoted ${...}: a backslash
// quotes $ ` " \ } and newline and is removed; before anything else it
// stays. rawRest says whether the rest is added quoted or left for a
// later pass (the replacement of ${x/p/r} sees such backslashes).
func (e *expander) dqLit(s string, quotedRest bool) {
	start := 0
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		c := s[i+1]
		if !strings.ContainsRune("$`\"\\}\n", rune(c)) {
			i++
			continue
		}
		e.add(s[start:i], quotedRest)
		if c != '\n' {
			e.add(s[i+1:i+2], true)
		}
		i++
		start = i + 1
	}
	e.add(s[start:], quotedRest)
}

// replacement expands the replacement of ${x/p/r} into the pieces put
// between copies of the matched text: with patsub_replacement, an
// unquoted & stands for the match and a backslash quotes the next
// character, even one that came from an unquoted expansion.
func (f *frame) replacement(w *syntax.Word, quoted bool) ([]string, bool) {
	if w == nil {
		return []string{""}, true
	}
	if len(w.Parts) == 1 {
		// the common case, plain text: nothing to expand or mark
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "\\&~") {
			return []string{l.Value}, true
		}
	}
	e := expander{f: f, mode: modeLiteral}
	if quoted {
		// inside double quotes the word's own text and expansions are
		// not quoted for this purpose; only its inner quotes are
		for i, p := range w.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				if i == 0 && strings.HasPrefix(l.Value, "~") {
					// a tilde expands here even inside double quotes
					e.tildeLit(l.Value, len(w.Parts) == 1)
				} else {
					e.dqLit(l.Value, false)
				}
			} else {
				e.part(p, false)
			}
			if e.err {
				return nil, false
			}
		}
	} else {
		e.word(w)
		if e.err {
			return nil, false
		}
	}
	if !f.opts.has(optPatsubRepl) {
		return []string{e.joined()}, true
	}
	var pieces []string
	var b strings.Builder
	for _, sg := range e.cur {
		if sg.quoted {
			b.WriteString(sg.s)
			continue
		}
		s := sg.s
		for i := 0; i < len(s); i++ {
			switch {
			case s[i] == '\\' && i+1 < len(s):
				i++
				b.WriteByte(s[i])
			case s[i] == '&':
				pieces = append(pieces, b.String())
				b.Reset()
			default:
				b.WriteByte(s[i])
			}
		}
	}
	return append(pieces, b.String()), true
}

// ansiC decodes the escapes of $'...' (and of ${x@E}): \NNN takes up to
// three octal digits, \cX is a control character, \xHH, \uHHHH and
// \UHHHHHHHH are characters by code.
func ansiC(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		c := s[i]
		switch c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, k := digits(s[i:], 8, 3)
			if n == 0 {
				return b.String() // a shell string ends at NUL
			}
			b.WriteByte(byte(n))
			i += k - 1
		case 'x':
			n, k := digits(s[i+1:], 16, 2)
			if k == 0 {
				b.WriteString("\\x")
				continue
			}
			if n == 0 {
				return b.String()
			}
			b.WriteByte(byte(n))
			i += k
		case 'u', 'U':
			max := 4
			if c == 'U' {
				max = 8
			}
			n, k := digits(s[i+1:], 16, max)
			if k == 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			if n > utf8.MaxRune {
				n = utf8.RuneError
			}
			b.WriteRune(rune(n))
			i += k
		case 'c':
			if i+1 >= len(s) {
				b.WriteString("\\c")
				continue
			}
			i++
			d := s[i]
			if d == '\\' && i+1 < len(s) && s[i+1] == '\\' {
				i++
			}
			if d >= 'a' && d <= 'z' {
				d -= 32
			}
			b.WriteByte(d & 0x1f)
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// dropNUL removes the NUL bytes of a command substitution's output, which
// a shell string cannot hold, with bash's warning.
func (f *frame) dropNUL(s string) string {
	if strings.IndexByte(s, 0) < 0 {
		return s
	}
	f.errorf("warning: command substitution: ignored null byte in input")
	return strings.ReplaceAll(s, "\x00", "")
}
