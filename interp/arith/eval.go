package arith

import (
	"strconv"
	"strings"
)

type tokKind uint8

const (
	tEOF   tokKind = iota
	tNum           // a constant
	tVar           // a variable, maybe with a subscript
	tOp            // an operator; op holds its text
	tOther         // a character that is no operator
)

// parser reads and evaluates at once, as bash's expr.c does: noeval > 0
// in branches whose result is not used, where nothing is assigned and no
// error but a syntax error is raised.
type parser struct {
	src    string
	env    Env
	depth  int // recursion level of variable values
	parens int

	pos     int // next byte to read
	last    int // start of the current token (bash's lasttp)
	tok     tokKind
	op      string
	num     int64
	name    string // tVar
	sub     string // tVar with a subscript: its text
	hasSub  bool
	prevVar bool // the token before the current one was a variable
	lval    struct {
		name, sub string
		hasSub    bool
	}
	noeval int
}

// failure carries an error out of the recursive descent.
type failure struct{ err error }

func (p *parser) fail(msg string) {
	panic(failure{&Error{Expr: strings.TrimLeft(p.src, " \t\n"), Msg: msg, Token: p.src[p.last:]}})
}

func (p *parser) check(err error) {
	if err != nil {
		panic(failure{err})
	}
}

func (p *parser) run() (v int64, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(failure)
			if !ok {
				panic(r)
			}
			v, err = 0, f.err
		}
	}()
	p.next()
	if p.tok == tEOF {
		return 0, nil
	}
	v = p.comma()
	switch p.tok {
	case tEOF:
	case tOther:
		p.fail("syntax error: invalid arithmetic operator")
	default:
		p.fail("syntax error in expression")
	}
	return v, nil
}

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
		p.num = p.constant(s[:i])
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
	for _, set := range [][]string{ops3, ops2} {
		for _, o := range set {
			if strings.HasPrefix(s, o) {
				p.tok, p.op = tOp, o
				p.pos += len(o)
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

// constant converts a number token as bash's strlong does.
func (p *parser) constant(s string) int64 {
	numErr := func(msg string) {
		panic(failure{&Error{Expr: s, Msg: msg, Token: s}})
	}
	base := int64(10)
	t := s
	if len(t) > 1 && t[0] == '0' {
		if t[1] == 'x' || t[1] == 'X' {
			base, t = 16, t[2:]
		} else {
			base, t = 8, t[1:]
		}
	}
	var v int64
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c == '#' {
			if base != 10 || i == 0 || strings.IndexByte(t[:i], '#') >= 0 {
				numErr("invalid number")
			}
			if v < 2 || v > 64 {
				numErr("invalid arithmetic base")
			}
			if i+1 == len(t) {
				numErr("invalid integer constant")
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
			numErr("value too great for base")
		}
		v = v*base + d
	}
	return v
}

func (p *parser) comma() int64 {
	v := p.assign()
	for p.is(",") {
		p.next()
		v = p.assign()
	}
	return v
}

var assignOps = map[string]string{"=": "", "*=": "*", "/=": "/", "%=": "%", "+=": "+", "-=": "-",
	"<<=": "<<", ">>=": ">>", "&=": "&", "^=": "^", "|=": "|"}

func (p *parser) assign() int64 {
	v := p.cond()
	if p.tok != tOp {
		return v
	}
	op, ok := assignOps[p.op]
	if !ok {
		return v
	}
	if !p.prevVar {
		p.fail("attempted assignment to non-variable")
	}
	lv := p.lval
	opStart := p.pos
	p.next()
	rhs := p.assign()
	if op != "" {
		old := int64(0)
		if p.noeval == 0 {
			old = p.value(lv.name, lv.sub, lv.hasSub)
		}
		rhs = p.binary(op, old, rhs, opStart)
	}
	if p.noeval == 0 {
		p.store(lv.name, lv.sub, lv.hasSub, rhs)
	}
	return rhs
}

func (p *parser) cond() int64 {
	c := p.lor()
	if !p.is("?") {
		return c
	}
	p.next()
	if p.tok == tEOF || p.is(":") {
		p.fail("expression expected")
	}
	if c == 0 {
		p.noeval++
	}
	a := p.comma()
	if c == 0 {
		p.noeval--
	}
	if !p.is(":") {
		p.fail("`:' expected for conditional expression")
	}
	p.next()
	if p.tok == tEOF {
		p.fail("expression expected")
	}
	if c != 0 {
		p.noeval++
	}
	b := p.cond()
	if c != 0 {
		p.noeval--
	}
	p.prevVar = false
	if c != 0 {
		return a
	}
	return b
}

func (p *parser) lor() int64 {
	v := p.land()
	for p.is("||") {
		p.next()
		if v != 0 {
			p.noeval++
		}
		r := p.land()
		if v != 0 {
			p.noeval--
		}
		v = b2i(v != 0 || r != 0)
	}
	return v
}

func (p *parser) land() int64 {
	v := p.binLevel(0)
	for p.is("&&") {
		p.next()
		if v == 0 {
			p.noeval++
		}
		r := p.binLevel(0)
		if v == 0 {
			p.noeval--
		}
		v = b2i(v != 0 && r != 0)
	}
	return v
}

// levels lists the left-associative binary operators, loosest first.
var levels = [][]string{{"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

func (p *parser) binLevel(l int) int64 {
	if l == len(levels) {
		return p.power()
	}
	v := p.binLevel(l + 1)
	for p.tok == tOp && contains(levels[l], p.op) {
		op := p.op
		opEnd := p.pos
		p.next()
		r := p.binLevel(l + 1)
		v = p.binary(op, v, r, opEnd)
		p.prevVar = false
	}
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// binary applies op; opEnd is where the right operand's text starts, for
// the division error's token.
func (p *parser) binary(op string, a, b int64, opEnd int) int64 {
	switch op {
	case "|":
		return a | b
	case "^":
		return a ^ b
	case "&":
		return a & b
	case "==":
		return b2i(a == b)
	case "!=":
		return b2i(a != b)
	case "<=":
		return b2i(a <= b)
	case ">=":
		return b2i(a >= b)
	case "<":
		return b2i(a < b)
	case ">":
		return b2i(a > b)
	case "<<":
		return a << (uint64(b) & 63)
	case ">>":
		return a >> (uint64(b) & 63)
	case "+":
		return a + b
	case "-":
		return a - b
	case "*":
		return a * b
	case "/", "%":
		if b == 0 {
			if p.noeval > 0 {
				return 0
			}
			for opEnd < len(p.src) && isSpace(p.src[opEnd]) {
				opEnd++
			}
			p.last = opEnd
			p.fail("division by 0")
		}
		if b == -1 {
			if op == "/" {
				return -a // wraps for the smallest value, as bash's does
			}
			return 0
		}
		if op == "/" {
			return a / b
		}
		return a % b
	}
	return 0
}

func (p *parser) power() int64 {
	v := p.unary()
	if !p.is("**") {
		return v
	}
	p.next()
	e := p.power()
	p.prevVar = false
	if e < 0 {
		if p.noeval > 0 {
			return 0
		}
		p.fail("exponent less than 0")
	}
	r := int64(1)
	for ; e > 0; e >>= 1 {
		if e&1 != 0 {
			r *= v
		}
		v *= v
	}
	return r
}

func (p *parser) unary() int64 {
	if p.tok == tOp {
		switch p.op {
		case "!":
			p.next()
			v := b2i(p.unary() == 0)
			p.prevVar = false
			return v
		case "~":
			p.next()
			v := ^p.unary()
			p.prevVar = false
			return v
		case "-":
			p.next()
			v := -p.unary()
			p.prevVar = false
			return v
		case "+":
			p.next()
			v := p.unary()
			p.prevVar = false
			return v
		}
	}
	return p.operand()
}

func (p *parser) operand() int64 {
	switch {
	case p.tok == tNum:
		v := p.num
		p.next()
		return v
	case p.tok == tVar:
		name, sub, hasSub := p.name, p.sub, p.hasSub
		p.lval.name, p.lval.sub, p.lval.hasSub = name, sub, hasSub
		p.next()
		if p.tok == tOp {
			if _, ok := assignOps[p.op]; ok {
				return 0 // assign() takes it from here
			}
			if p.op == "++post" || p.op == "--post" {
				v := int64(0)
				if p.noeval == 0 {
					v = p.value(name, sub, hasSub)
					d := int64(1)
					if p.op == "--post" {
						d = -1
					}
					p.store(name, sub, hasSub, v+d)
				}
				p.next()
				p.prevVar = false
				return v
			}
		}
		if p.noeval > 0 {
			return 0
		}
		return p.value(name, sub, hasSub)
	case p.is("++pre") || p.is("--pre"):
		d := int64(1)
		if p.op == "--pre" {
			d = -1
		}
		p.next()
		if p.tok != tVar {
			p.fail("syntax error: operand expected")
		}
		name, sub, hasSub := p.name, p.sub, p.hasSub
		v := int64(0)
		if p.noeval == 0 {
			v = p.value(name, sub, hasSub) + d
			p.store(name, sub, hasSub, v)
		}
		p.next()
		p.prevVar = false
		return v
	case p.is("("):
		if p.parens >= MaxDepth {
			p.fail("expression recursion level exceeded")
		}
		p.parens++
		p.next()
		v := p.comma()
		if !p.is(")") {
			p.fail("missing `)'")
		}
		p.parens--
		p.next()
		p.prevVar = false
		return v
	}
	p.fail("syntax error: operand expected")
	return 0
}

// index turns a subscript into what the Env expects: arithmetic for an
// indexed array, the key text for an associative one.
func (p *parser) index(name, sub string) string {
	if p.env.Assoc(name) {
		return sub
	}
	v, err := evalString(sub, p.env, p.depth+1)
	p.check(err)
	return strconv.FormatInt(v, 10)
}

// value reads a variable and evaluates its text as an expression.
func (p *parser) value(name, sub string, hasSub bool) int64 {
	var s string
	var err error
	if hasSub {
		s, _, err = p.env.GetElem(name, p.index(name, sub))
	} else {
		s, _, err = p.env.Get(name)
	}
	p.check(err)
	if s == "" {
		return 0
	}
	if plainDecimal(s) {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			return v
		}
	}
	v, err := evalString(s, p.env, p.depth+1)
	p.check(err)
	return v
}

func (p *parser) store(name, sub string, hasSub bool, v int64) {
	if hasSub {
		p.check(p.env.SetElem(name, p.index(name, sub), v))
		return
	}
	p.check(p.env.Set(name, v))
}

// plainDecimal reports whether s is a decimal integer without leading
// zeros (which would make it octal): the common value, read directly.
func plainDecimal(s string) bool {
	if s[0] == '-' {
		s = s[1:]
	}
	if s == "0" {
		return true
	}
	if s == "" || s[0] < '1' || s[0] > '9' || len(s) > 18 {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
