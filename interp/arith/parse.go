package arith

// The reader is a recursive descent over bash's grammar (expr.c) that
// builds a tree. It runs in one of two modes:
//
//   - compiling: the whole text is read and the tree is kept, to be
//     evaluated as often as needed;
//   - eager (bash's own way): each node is evaluated as soon as it is read,
//     unless it is in a branch whose value is not used. This is how text
//     with a syntax error is evaluated, since bash performs the side effects
//     before the error ("x=5, 1+" assigns x and then fails).
//
// A text that compiles evaluates exactly as it would eagerly: evaluation
// order is the reading order, and skipped branches have no effects. (Their
// values are still computed, with variables read as 0, since a negative
// exponent there is an error in bash too: the compiled tree evaluates a
// skipped branch only when it has a "**".)

// parser is the reader's state.
type parser struct {
	evaluator
	eager  bool
	parens int // open parentheses
	nest   int // recursion of unary operators and **

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
}

// maxNest bounds the nesting of unary operators and right-associative
// powers ("- - - ... 1", "2**2**...") so no text exhausts the Go stack.
const maxNest = 1 << 14

func (p *parser) fail(msg string) { p.failAt(p.last, msg) }

// mk finishes a node: in eager mode it is evaluated now (without effects
// in a skipped branch) and its children are let go.
func (p *parser) mk(n *node) *node {
	n.pow = n.op == oPow || n.x.hasPow() || n.y.hasPow() || n.z.hasPow()
	if !p.eager {
		return n
	}
	switch n.op {
	case oCond:
		if n.x.val != 0 {
			n.val = n.y.val
		} else {
			n.val = n.z.val
		}
	default:
		n.val = p.apply(n, n.x.value(), n.y.value())
	}
	n.x, n.y, n.z = nil, nil, nil
	return n
}

// parse reads the whole text; nil is the empty expression.
func (p *parser) parse() *node {
	p.next()
	if p.tok == tEOF {
		return nil
	}
	n := p.comma()
	switch p.tok {
	case tEOF:
	case tOther:
		p.fail("syntax error: invalid arithmetic operator")
	default:
		p.fail("syntax error in expression")
	}
	return n
}

func (p *parser) comma() *node {
	n := p.assign()
	for p.is(",") {
		p.next()
		n = p.mk(&node{op: oComma, x: n, y: p.assign()})
	}
	return n
}

// assignOps returns the operation an assignment operator applies (oAssign
// for plain =). Switches, not maps: a map literal is built at every
// process start, whether or not the run does any arithmetic.
func assignOps(op string) (opcode, bool) {
	switch op {
	case "=":
		return oAssign, true
	case "*=":
		return oMul, true
	case "/=":
		return oDiv, true
	case "%=":
		return oMod, true
	case "+=":
		return oAdd, true
	case "-=":
		return oSub, true
	case "<<=":
		return oShl, true
	case ">>=":
		return oShr, true
	case "&=":
		return oAnd, true
	case "^=":
		return oXor, true
	case "|=":
		return oOr, true
	}
	return 0, false
}

func (p *parser) assign() *node {
	lhs := p.cond()
	if p.tok != tOp {
		return lhs
	}
	op, ok := assignOps(p.op)
	if !ok {
		return lhs
	}
	// Only a variable read last can be assigned: prevVar is false after
	// any operator, so lhs is the variable's placeholder here.
	if !p.prevVar {
		p.fail("attempted assignment to non-variable")
	}
	lv := p.lval
	opEnd := p.pos
	p.next()
	rhs := p.assign()
	return p.mk(&node{op: oAssign, bin: op, name: lv.name, sub: lv.sub, hasSub: lv.hasSub, tok: skipSpace(p.src, opEnd), x: rhs})
}

func (p *parser) cond() *node {
	c := p.lor()
	if !p.is("?") {
		return c
	}
	p.next()
	if p.tok == tEOF || p.is(":") {
		p.fail("expression expected")
	}
	if c.val == 0 {
		p.noeval++
	}
	a := p.comma()
	if c.val == 0 {
		p.noeval--
	}
	if !p.is(":") {
		p.fail("`:' expected for conditional expression")
	}
	p.next()
	if p.tok == tEOF {
		p.fail("expression expected")
	}
	if c.val != 0 {
		p.noeval++
	}
	b := p.cond()
	if c.val != 0 {
		p.noeval--
	}
	p.prevVar = false
	return p.mk(&node{op: oCond, x: c, y: a, z: b})
}

func (p *parser) lor() *node {
	n := p.land()
	for p.is("||") {
		p.next()
		if n.val != 0 {
			p.noeval++
		}
		r := p.land()
		if n.val != 0 {
			p.noeval--
		}
		n = p.mk(&node{op: oLor, x: n, y: r})
		p.prevVar = false
	}
	return n
}

func (p *parser) land() *node {
	n := p.binLevel(0)
	for p.is("&&") {
		p.next()
		if n.val == 0 {
			p.noeval++
		}
		r := p.binLevel(0)
		if n.val == 0 {
			p.noeval--
		}
		n = p.mk(&node{op: oLand, x: n, y: r})
		p.prevVar = false
	}
	return n
}

type binOp struct {
	text string
	op   opcode
}

// levels lists the left-associative binary operators, loosest first.
var levels = [][]binOp{{{"|", oOr}}, {{"^", oXor}}, {{"&", oAnd}}, {{"==", oEq}, {"!=", oNe}},
	{{"<=", oLe}, {">=", oGe}, {"<", oLt}, {">", oGt}}, {{"<<", oShl}, {">>", oShr}}, {{"+", oAdd}, {"-", oSub}},
	{{"*", oMul}, {"/", oDiv}, {"%", oMod}}}

func (p *parser) binOp(l int) (opcode, bool) {
	if p.tok != tOp {
		return 0, false
	}
	for _, b := range levels[l] {
		if b.text == p.op {
			return b.op, true
		}
	}
	return 0, false
}

func (p *parser) binLevel(l int) *node {
	if l == len(levels) {
		return p.power()
	}
	n := p.binLevel(l + 1)
	for {
		op, ok := p.binOp(l)
		if !ok {
			return n
		}
		opEnd := p.pos
		p.next()
		r := p.binLevel(l + 1)
		// The division error points at the right operand's text.
		n = p.mk(&node{op: op, x: n, y: r, tok: skipSpace(p.src, opEnd)})
		p.prevVar = false
	}
}

func (p *parser) enter() {
	if p.nest++; p.nest > maxNest {
		p.fail("expression recursion level exceeded")
	}
}

func (p *parser) power() *node {
	n := p.unary()
	if !p.is("**") {
		return n
	}
	p.next()
	p.enter()
	e := p.power()
	p.nest--
	p.prevVar = false
	return p.mk(&node{op: oPow, x: n, y: e, tok: p.last})
}

func unaryOps(op string) (opcode, bool) {
	switch op {
	case "!":
		return oNot, true
	case "~":
		return oCompl, true
	case "-":
		return oNeg, true
	case "+":
		return oPlus, true
	}
	return 0, false
}

func (p *parser) unary() *node {
	if p.tok == tOp {
		if op, ok := unaryOps(p.op); ok {
			p.next()
			p.enter()
			x := p.unary()
			p.nest--
			n := p.mk(&node{op: op, x: x})
			p.prevVar = false
			return n
		}
	}
	return p.operand()
}

func (p *parser) operand() *node {
	switch {
	case p.tok == tNum:
		n := p.mk(&node{op: oNum, num: p.num})
		p.next()
		return n
	case p.tok == tVar:
		v := &node{op: oVar, name: p.name, sub: p.sub, hasSub: p.hasSub, tok: p.last}
		p.lval.name, p.lval.sub, p.lval.hasSub = p.name, p.sub, p.hasSub
		p.next()
		if p.tok == tOp {
			if _, ok := assignOps(p.op); ok {
				return &node{op: oLval} // assign() takes it from here
			}
			if p.op == "++post" || p.op == "--post" {
				v.op = oPostInc
				if p.op == "--post" {
					v.op = oPostDec
				}
				p.mk(v)
				p.next()
				p.prevVar = false
				return v
			}
		}
		return p.mk(v)
	case p.is("++pre") || p.is("--pre"):
		op := oPreInc
		if p.op == "--pre" {
			op = oPreDec
		}
		p.next()
		if p.tok != tVar {
			p.fail("syntax error: operand expected")
		}
		n := p.mk(&node{op: op, name: p.name, sub: p.sub, hasSub: p.hasSub, tok: p.last})
		p.next()
		p.prevVar = false
		return n
	case p.is("("):
		if p.parens >= MaxDepth {
			p.fail("expression recursion level exceeded")
		}
		p.parens++
		p.next()
		n := p.comma()
		if !p.is(")") {
			p.fail("missing `)'")
		}
		p.parens--
		p.next()
		p.prevVar = false
		return n
	}
	p.fail("syntax error: operand expected")
	return nil
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}
