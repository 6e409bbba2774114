package arith

import "strings"

type tokKind uint8

const (
	tEOF   tokKind = iota
	tNum           // a constant
	tVar           // a variable, maybe with a subscript
	tOp            // an operator; op holds its text
	tOther         // a character that is no operator
)

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameChar(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

var ops3 = []string{"<<=", ">>="}
var ops2 = []string{"**", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||"}

// next reads the next token. At the end the token start stays where it
// was, so errors there show the last token, as bash's do.
func (p *parser) next() {
	p.prevVar = p.tok == tVar
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
	if p.pos >= len(p.src) {
		p.tok = tEOF
		return
	}
	p.last = p.pos
	s := p.src[p.pos:]
	c := s[0]
	switch {
	case isNameStart(c):
		i := 1
		for i < len(s) && isNameChar(s[i]) {
			i++
		}
		p.tok, p.name, p.hasSub, p.sub = tVar, s[:i], false, ""
		if i < len(s) && s[i] == '[' {
			level, j := 0, i
			for ; j < len(s); j++ {
				if s[j] == '[' {
					level++
				} else if s[j] == ']' {
					if level--; level == 0 {
						break
					}
				}
			}
			if j >= len(s) {
				p.fail("bad array subscript")
			}
			p.hasSub, p.sub = true, s[i+1:j]
			i = j + 1
		}
		p.pos += i
		return
	case c >= '0' && c <= '9':
		i := 1
		for i < len(s) && (isNameChar(s[i]) || s[i] == '#' || s[i] == '@') {
			i++
		}
		p.tok = tNum
		var msg string
		if p.num, msg = constant(s[:i]); msg != "" {
			// bash shows the text read so far and the constant.
			panic(failure{&Error{Expr: strings.TrimLeft(p.src[:p.pos+i], " \t\n"), Msg: msg, Token: s[:i]}})
		}
		p.pos += i
		return
	}
	if (c == '+' || c == '-') && len(s) > 1 && s[1] == c {
		if p.prevVar {
			p.tok, p.op = tOp, s[:2]+"post"
			p.pos += 2
			return
		}
		j := 2
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j < len(s) && isNameStart(s[j]) {
			p.tok, p.op = tOp, s[:2]+"pre"
			p.pos += 2
			return
		}
	}
	if len(s) >= 3 {
		for _, o := range ops3 {
			if s[:3] == o {
				p.tok, p.op = tOp, o
				p.pos += 3
				return
			}
		}
	}
	if len(s) >= 2 {
		for _, o := range ops2 {
			if s[:2] == o {
				p.tok, p.op = tOp, o
				p.pos += 2
				return
			}
		}
	}
	if strings.IndexByte("+-*/%<>=!~&^|?:,()", c) >= 0 {
		p.tok, p.op = tOp, s[:1]
		p.pos++
		return
	}
	p.tok, p.op = tOther, s[:1]
	p.pos++
}

func (p *parser) is(op string) bool { return p.tok == tOp && p.op == op }

// constant converts a number token as bash's strlong does; msg is its
// error, if any.
func constant(s string) (v int64, msg string) {
	base := int64(10)
	t := s
	if len(t) > 1 && t[0] == '0' {
		if t[1] == 'x' || t[1] == 'X' {
			base, t = 16, t[2:]
		} else {
			base, t = 8, t[1:]
		}
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c == '#' {
			if base != 10 || i == 0 || strings.IndexByte(t[:i], '#') >= 0 {
				return 0, "invalid number"
			}
			if v < 2 || v > 64 {
				return 0, "invalid arithmetic base"
			}
			if i+1 == len(t) {
				return 0, "invalid integer constant"
			}
			base, v = v, 0
			continue
		}
		var d int64
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			if base <= 36 {
				d = int64(c-'A') + 10
			} else {
				d = int64(c-'A') + 36
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		}
		if d >= base {
			return 0, "value too great for base"
		}
		v = v*base + d
	}
	return v, ""
}
