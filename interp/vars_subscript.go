package interp

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The parser reads every subscript as arithmetic, but an associative
// array's subscript is a word: bash takes the text between the brackets
// as written ("m[a,b]", "m[x=y]", "m[$i+1]") and expands it without
// splitting. The text is rebuilt from the nodes' positions, which keep
// the operators and the blanks between them as written.

// assocKey expands an associative array's subscript as a word.
func (f *frame) assocKey(index syntax.ArithmExpr) (string, bool) {
	if w, ok := index.(*syntax.Word); ok {
		return f.literal(w)
	}
	ok := true
	s := arithSource(index, func(w *syntax.Word) string {
		s, good := f.literal(w)
		ok = ok && good
		return s
	})
	return s, ok
}

// arithExpanded is an arithmetic expression's text with its words
// expanded, as bash quotes it in some errors.
func (f *frame) arithExpanded(x syntax.ArithmExpr) string {
	return arithSource(x, func(w *syntax.Word) string {
		s, _ := f.literal(w)
		return s
	})
}

// subscriptText is a subscript as written, for error messages.
func subscriptText(index syntax.ArithmExpr) string {
	return arithSource(index, wordText)
}

// arithSource rebuilds the text of x, with word gives each word's text.
func arithSource(x syntax.ArithmExpr, word func(*syntax.Word) string) string {
	var b strings.Builder
	writeArith(&b, x, word)
	return b.String()
}

func writeArith(b *strings.Builder, x syntax.ArithmExpr, word func(*syntax.Word) string) {
	switch x := x.(type) {
	case *syntax.Word:
		b.WriteString(word(x))
	case *syntax.BinaryArithm:
		writeArith(b, x.X, word)
		gap(b, x.X.End(), x.OpPos)
		op := x.Op.String()
		b.WriteString(op)
		gap(b, x.OpPos, x.Y.Pos(), len(op))
		writeArith(b, x.Y, word)
	case *syntax.UnaryArithm:
		op := x.Op.String()
		if x.Post {
			writeArith(b, x.X, word)
			gap(b, x.X.End(), x.OpPos)
			b.WriteString(op)
			return
		}
		b.WriteString(op)
		gap(b, x.OpPos, x.X.Pos(), len(op))
		writeArith(b, x.X, word)
	case *syntax.ParenArithm:
		b.WriteByte('(')
		gap(b, x.Lparen, x.X.Pos(), 1)
		writeArith(b, x.X, word)
		gap(b, x.X.End(), x.Rparen)
		b.WriteByte(')')
	default:
		b.WriteString(arithText(x))
	}
}

// gap writes the blanks between two positions on one line (skip: the
// length of the token at from).
func gap(b *strings.Builder, from, to syntax.Pos, skip ...int) {
	if !from.IsValid() || !to.IsValid() || from.Line() != to.Line() {
		return
	}
	n := int(to.Offset()) - int(from.Offset())
	for _, s := range skip {
		n -= s
	}
	for ; n > 0; n-- {
		b.WriteByte(' ')
	}
}

// expandText expands a subscript given as text (unset 'm[$k]'), as bash
// expands it before use: parameters, command substitutions, quotes.
func (f *frame) expandText(s string) (string, bool) {
	if !strings.ContainsAny(s, "$`'\"\\") {
		return s, true
	}
	var ws []string
	failed := false
	err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Words(strings.NewReader(s), func(w *syntax.Word) bool {
		t, ok := f.literal(w)
		if !ok {
			failed = true
			return false
		}
		ws = append(ws, t)
		return true
	})
	if failed {
		return "", false
	}
	if err != nil {
		return s, true
	}
	return strings.Join(ws, " "), true
}
