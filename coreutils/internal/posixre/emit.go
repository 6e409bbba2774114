package posixre

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bashbox/bashbox/internal/lazy"
)

// emitter writes a parsed expression in Go (RE2) or .NET (regexp2) syntax.
type emitter struct {
	fl     Flags
	dotnet bool
	tooBig bool // a repetition count RE2 does not accept
	asciiB bool // \b or \B written for RE2, whose word characters are ASCII
	// reduced marks the \< and \> nodes that can be written as \b
	reduced map[*node]bool
}

const goRepeatMax = 1000

// resolve decides which word-boundary assertions can be plain \b and
// reports whether the whole expression fits RE2.
func (e *emitter) resolve(n *node) bool {
	if e.reduced == nil {
		e.reduced = map[*node]bool{}
	}
	ok := true
	var walk func(n *node, prev, next *node)
	walk = func(n *node, prev, next *node) {
		switch n.kind {
		case nWordStart:
			if next != nil && mustWordEdge(next, false) {
				e.reduced[n] = true
			} else {
				ok = false
			}
		case nWordEnd:
			if prev != nil && mustWordEdge(prev, true) {
				e.reduced[n] = true
			} else {
				ok = false
			}
		case nBackref:
			ok = false
		case nRepeat:
			if n.min > goRepeatMax || n.max > goRepeatMax {
				ok = false
			}
			walk(n.subs[0], nil, nil)
		case nConcat:
			for i, s := range n.subs {
				var p, x *node
				if i > 0 {
					p = n.subs[i-1]
				}
				if i+1 < len(n.subs) {
					x = n.subs[i+1]
				}
				walk(s, p, x)
			}
		case nGroup:
			walk(n.subs[0], prev, next)
		case nAlt:
			for _, s := range n.subs {
				walk(s, nil, nil)
			}
		}
	}
	walk(n, nil, nil)
	return ok
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r)
}

// mustWordEdge reports whether every match of n is non-empty and starts
// (or ends, when last) with a word character: so that \b before it means
// \< (after it, \>).
func mustWordEdge(n *node, last bool) bool {
	switch n.kind {
	case nLit:
		return isWordRune(n.r)
	case nSet:
		return n.set.onlyWord()
	case nGroup:
		return mustWordEdge(n.subs[0], last)
	case nConcat:
		if last {
			return mustWordEdge(n.subs[len(n.subs)-1], last)
		}
		return mustWordEdge(n.subs[0], last)
	case nAlt:
		for _, s := range n.subs {
			if !mustWordEdge(s, last) {
				return false
			}
		}
		return true
	case nRepeat:
		return n.min >= 1 && mustWordEdge(n.subs[0], last)
	}
	return false
}

// wordClass is the set of word characters in .NET syntax.
var netWord = lazy.Value[string]{New: func() string {
	var b strings.Builder
	wordSet(false).emit(&b, true, false)
	return b.String()
}}

func (e *emitter) emit(b *strings.Builder, n *node) {
	switch n.kind {
	case nEmpty:
		b.WriteString("(?:)")
	case nLit:
		r := n.r
		if r == utf8.RuneError && len(n.raw) == 1 {
			r = utf8.RuneError
		}
		writeRune(b, r, e.dotnet)
	case nAny:
		switch {
		case e.fl.Lines:
			b.WriteString(`[^\n]`)
		case e.dotnet:
			b.WriteString(`[\s\S]`)
		default:
			b.WriteString(`(?s:.)`)
		}
	case nSet:
		if r, ok := n.set.single(); ok && !(e.fl.Lines && r == '\n') {
			writeRune(b, r, e.dotnet)
			return
		}
		n.set.emit(b, e.dotnet, e.fl.Lines)
	case nGroup:
		b.WriteByte('(')
		e.emit(b, n.subs[0])
		b.WriteByte(')')
	case nConcat:
		for _, s := range n.subs {
			if s.kind == nAlt {
				b.WriteString("(?:")
				e.emit(b, s)
				b.WriteByte(')')
			} else {
				e.emit(b, s)
			}
		}
	case nAlt:
		for i, s := range n.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			e.emit(b, s)
		}
	case nRepeat:
		if !e.dotnet && (n.min > goRepeatMax || n.max > goRepeatMax) {
			e.tooBig = true
		}
		b.WriteString("(?:")
		e.emit(b, n.subs[0])
		b.WriteByte(')')
		switch {
		case n.min == 0 && n.max == -1:
			b.WriteByte('*')
		case n.min == 1 && n.max == -1:
			b.WriteByte('+')
		case n.min == 0 && n.max == 1:
			b.WriteByte('?')
		case n.max == -1:
			b.WriteString("{" + strconv.Itoa(n.min) + ",}")
		case n.min == n.max:
			b.WriteString("{" + strconv.Itoa(n.min) + "}")
		default:
			b.WriteString("{" + strconv.Itoa(n.min) + "," + strconv.Itoa(n.max) + "}")
		}
	case nBackref:
		b.WriteString(`(?:\` + strconv.Itoa(n.idx) + `)`)
	case nBOL:
		b.WriteString("^")
	case nEOL:
		switch {
		case !e.dotnet:
			b.WriteString("$")
		case e.fl.Multiline:
			b.WriteString(`(?=\n|\z)`)
		default:
			b.WriteString(`\z`)
		}
	case nBOT:
		b.WriteString(`\A`)
	case nEOT:
		b.WriteString(`\z`)
	case nWordB:
		if e.dotnet {
			nw := netWord.Get()
			b.WriteString(`(?:(?<=` + nw + `)(?!` + nw + `)|(?<!` + nw + `)(?=` + nw + `))`)
		} else {
			b.WriteString(`\b`)
			e.asciiB = true
		}
	case nNotWordB:
		if e.dotnet {
			nw := netWord.Get()
			b.WriteString(`(?:(?<=` + nw + `)(?=` + nw + `)|(?<!` + nw + `)(?!` + nw + `))`)
		} else {
			b.WriteString(`\B`)
			e.asciiB = true
		}
	case nWordStart:
		if !e.dotnet && e.reduced[n] {
			b.WriteString(`\b`)
			e.asciiB = true
		} else {
			nw := netWord.Get()
			b.WriteString(`(?<!` + nw + `)(?=` + nw + `)`)
		}
	case nWordEnd:
		if !e.dotnet && e.reduced[n] {
			b.WriteString(`\b`)
			e.asciiB = true
		} else {
			nw := netWord.Get()
			b.WriteString(`(?<=` + nw + `)(?!` + nw + `)`)
		}
	}
}

// IsWordChar reports whether r is a word character for \w, \b and grep -w
// (a letter, a digit or an underscore).
func IsWordChar(r rune) bool { return isWordRune(r) }
