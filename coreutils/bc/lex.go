package bc

import (
	"fmt"
	"strings"
)

type tokKind int

const (
	tEOF tokKind = iota
	tEOL
	tAnd
	tOr
	tNot
	tString
	tName
	tNumber
	tAssign // text: "=", "+", "-", "*", "/", "%", "^"
	tRel    // text: "==", "<=", ">=", "!=", "<", ">"
	tIncr   // text: "+" or "-"
	tChar   // text: one of + - * / % ^ ; ( ) { } [ ] , &
	// keywords
	tDefine
	tBreak
	tQuit
	tLength
	tReturn
	tFor
	tIf
	tWhile
	tSqrt
	tElse
	tScale
	tIbase
	tObase
	tAuto
	tRead
	tRandom
	tWarranty
	tHalt
	tLast
	tContinue
	tPrint
	tLimits
	tHistory
	tVoid
)

var keywords = map[string]tokKind{
	"define": tDefine, "break": tBreak, "quit": tQuit, "length": tLength,
	"return": tReturn, "for": tFor, "if": tIf, "while": tWhile, "sqrt": tSqrt,
	"else": tElse, "scale": tScale, "ibase": tIbase, "obase": tObase,
	"auto": tAuto, "read": tRead, "random": tRandom, "warranty": tWarranty,
	"halt": tHalt, "last": tLast, "continue": tContinue, "print": tPrint,
	"limits": tLimits, "history": tHistory, "void": tVoid,
}

type token struct {
	kind tokKind
	text string
	line int // the lexer's line number after reading the token
}

// lexer splits one source into tokens, reporting illegal characters
// through report (which prints "NAME LINE: message").
type lexer struct {
	src    string
	pos    int
	line   int
	name   string // the source's name in messages
	report func(line int, msg string)
	// more switches to the next source, as GNU bc's scanner does at the
	// end of a file: the sources form one token stream. It returns false
	// at the end of the last one.
	more func(l *lexer) bool
}

func isDigitChar(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' }

func (l *lexer) next() token {
	for {
		if l.pos >= len(l.src) {
			if l.more != nil && l.more(l) {
				continue
			}
			// GNU reports errors at the very end as line 1 of standard
			// input.
			l.line, l.name = 1, "(standard_in)"
			return token{kind: tEOF, line: l.line}
		}
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t':
			l.pos++
			continue
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			l.pos += 2
			l.line++
			continue
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
			continue
		case c == '/' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '*':
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				l.line += strings.Count(l.src[l.pos:], "\n")
				l.pos = len(l.src)
				l.report(-1, "EOF encountered in a comment.")
				continue
			}
			body := l.src[l.pos : l.pos+2+end+2]
			l.line += strings.Count(body, "\n")
			l.pos += len(body)
			continue
		case c == '\n':
			l.pos++
			l.line++
			return token{kind: tEOL, line: l.line}
		case c == '"':
			end := strings.IndexByte(l.src[l.pos+1:], '"')
			if end < 0 {
				l.pos++
				l.report(l.line, "illegal character: \"")
				continue
			}
			s := l.src[l.pos : l.pos+1+end+1]
			l.pos += len(s)
			l.line += strings.Count(s, "\n")
			return token{kind: tString, text: s, line: l.line}
		case c >= 'a' && c <= 'z':
			j := l.pos
			for j < len(l.src) && (l.src[j] >= 'a' && l.src[j] <= 'z' || l.src[j] >= '0' && l.src[j] <= '9' || l.src[j] == '_') {
				j++
			}
			w := l.src[l.pos:j]
			l.pos = j
			if k, ok := keywords[w]; ok {
				return token{kind: k, text: w, line: l.line}
			}
			return token{kind: tName, text: w, line: l.line}
		case isDigitChar(c) || c == '.' && l.pos+1 < len(l.src) && isDigitChar(l.src[l.pos+1]):
			return l.number()
		case c == '.':
			l.pos++
			return token{kind: tLast, text: ".", line: l.line}
		}
		two := ""
		if l.pos+1 < len(l.src) {
			two = l.src[l.pos : l.pos+2]
		}
		switch two {
		case "&&":
			l.pos += 2
			return token{kind: tAnd, text: two, line: l.line}
		case "||":
			l.pos += 2
			return token{kind: tOr, text: two, line: l.line}
		case "++", "--":
			l.pos += 2
			return token{kind: tIncr, text: two[:1], line: l.line}
		case "==", "<=", ">=", "!=":
			l.pos += 2
			return token{kind: tRel, text: two, line: l.line}
		case "+=", "-=", "*=", "/=", "%=", "^=":
			l.pos += 2
			return token{kind: tAssign, text: two[:1], line: l.line}
		}
		l.pos++
		switch c {
		case '=':
			return token{kind: tAssign, text: "=", line: l.line}
		case '<', '>':
			return token{kind: tRel, text: string(c), line: l.line}
		case '!':
			return token{kind: tNot, text: "!", line: l.line}
		case '+', '-', '*', '/', '%', '^', ';', '(', ')', '{', '}', '[', ']', ',', '&':
			return token{kind: tChar, text: string(c), line: l.line}
		}
		l.report(l.line, "illegal character: "+showChar(c))
	}
}

// showChar renders an illegal character as flex-generated bc does: ^X for
// control characters.
func showChar(c byte) string {
	switch {
	case c < 0x20:
		return "^" + string(rune(c+'@'))
	case c == 0x7f:
		return "^?"
	}
	return fmt.Sprintf("%c", c)
}

// number reads a numeric constant; backslash-newlines inside it are
// dropped, and leading zeros too, as GNU bc's scanner does.
func (l *lexer) number() token {
	t := l.rawNumber()
	s := strings.TrimLeft(t.text, "0")
	if s == "" {
		s = "0"
	}
	t.text = s
	return t
}

func (l *lexer) rawNumber() token {
	var b strings.Builder
	seenDot := false
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isDigitChar(c):
			b.WriteByte(c)
			l.pos++
		case c == '.' && !seenDot:
			seenDot = true
			b.WriteByte(c)
			l.pos++
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			l.pos += 2
			l.line++
		default:
			return token{kind: tNumber, text: b.String(), line: l.line}
		}
	}
	return token{kind: tNumber, text: b.String(), line: l.line}
}
