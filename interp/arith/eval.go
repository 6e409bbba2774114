package arith

import (
	"strconv"
	"strings"
)

type opcode uint8

const (
	oNum     opcode = iota
	oVar            // a variable's value, evaluated as an expression
	oLval           // a variable before an assignment operator (0)
	oPostInc        // x++
	oPostDec
	oPreInc // ++x
	oPreDec
	oNot // !x
	oCompl
	oNeg
	oPlus
	oOr // binary operators
	oXor
	oAnd
	oEq
	oNe
	oLe
	oGe
	oLt
	oGt
	oShl
	oShr
	oAdd
	oSub
	oMul
	oDiv
	oMod
	oPow
	oAssign // bin holds the operator of a compound assignment
	oComma
	oLor
	oLand
	oCond
)

// node is one operation of a compiled expression. Compiled trees are
// shared by concurrent evaluations and never written after compiling.
type node struct {
	op        opcode
	bin       opcode // oAssign: oAssign for "=", else the operator of "op="
	num       int64
	name, sub string // the variable of oVar, increments and assignments
	hasSub    bool
	tok       int // where an error raised by this operation points
	x, y, z   *node
	pow       bool  // the subtree has a "**"
	val       int64 // the value, in eager evaluation only
}

func (n *node) hasPow() bool { return n != nil && n.pow }

func (n *node) value() int64 {
	if n == nil {
		return 0
	}
	return n.val
}

// failure carries an error out of the recursion.
type failure struct{ err error }

// evaluator is what evaluation needs, compiled or eager.
type evaluator struct {
	src    string
	env    Env
	cache  *Cache
	depth  int // recursion level of variable values
	noeval int // > 0 in branches whose value is not used: no effects, variables are 0
}

func (e *evaluator) failAt(tok int, msg string) {
	panic(failure{&Error{Expr: strings.TrimLeft(e.src, " \t\n"), Msg: msg, Token: e.src[tok:]}})
}

func (e *evaluator) check(err error) {
	if err != nil {
		panic(failure{err})
	}
}

// catch turns a failure into the error result of an evaluation.
func catch(v *int64, err *error) {
	if r := recover(); r != nil {
		f, ok := r.(failure)
		if !ok {
			panic(r)
		}
		*v, *err = 0, f.err
	}
}

// run evaluates a compiled tree.
func (e *evaluator) run(n *node) (v int64, err error) {
	if n == nil {
		return 0, nil
	}
	defer catch(&v, &err)
	return e.eval(n), nil
}

func (e *evaluator) eval(n *node) int64 {
	switch n.op {
	case oNum:
		return n.num
	case oVar:
		if e.noeval > 0 {
			return 0
		}
		return e.value(n.name, n.sub, n.hasSub, n.tok)
	case oLor:
		if e.eval(n.x) != 0 {
			e.skip(n.y)
			return 1
		}
		return b2i(e.eval(n.y) != 0)
	case oLand:
		if e.eval(n.x) == 0 {
			e.skip(n.y)
			return 0
		}
		return b2i(e.eval(n.y) != 0)
	case oCond:
		if e.eval(n.x) != 0 {
			v := e.eval(n.y)
			e.skip(n.z)
			return v
		}
		e.skip(n.y)
		return e.eval(n.z)
	case oAssign:
		return e.apply(n, e.eval(n.x), 0)
	}
	var a, b int64
	if n.x != nil {
		a = e.eval(n.x)
	}
	if n.y != nil {
		b = e.eval(n.y)
	}
	return e.apply(n, a, b)
}

// skip evaluates a branch whose value is not used: without effects, and
// only when it has a "**", the one error bash raises there.
func (e *evaluator) skip(n *node) {
	if n.hasPow() {
		e.noeval++
		e.eval(n)
		e.noeval--
	}
}

// apply performs one operation on its operands' values.
func (e *evaluator) apply(n *node, a, b int64) int64 {
	switch n.op {
	case oNum:
		return n.num
	case oVar:
		if e.noeval > 0 {
			return 0
		}
		return e.value(n.name, n.sub, n.hasSub, n.tok)
	case oLval:
		return 0
	case oPostInc, oPostDec:
		if e.noeval > 0 {
			return 0
		}
		v := e.value(n.name, n.sub, n.hasSub, n.tok)
		d := int64(1)
		if n.op == oPostDec {
			d = -1
		}
		e.store(n.name, n.sub, n.hasSub, v+d)
		return v
	case oPreInc, oPreDec:
		d := int64(1)
		if n.op == oPreDec {
			d = -1
		}
		if e.noeval > 0 {
			return d
		}
		v := e.value(n.name, n.sub, n.hasSub, n.tok) + d
		e.store(n.name, n.sub, n.hasSub, v)
		return v
	case oNot:
		return b2i(a == 0)
	case oCompl:
		return ^a
	case oNeg:
		return -a
	case oPlus:
		return a
	case oPow:
		if b < 0 {
			e.failAt(n.tok, "exponent less than 0")
		}
		r := int64(1)
		for ; b > 0; b >>= 1 {
			if b&1 != 0 {
				r *= a
			}
			a *= a
		}
		return r
	case oAssign:
		if e.noeval > 0 {
			if n.bin != oAssign {
				a = e.binary(n.bin, 0, a, n.tok)
			}
			return a
		}
		if n.bin != oAssign {
			a = e.binary(n.bin, e.value(n.name, n.sub, n.hasSub, n.tok), a, n.tok)
		}
		e.store(n.name, n.sub, n.hasSub, a)
		return a
	case oComma:
		return b
	case oLor:
		return b2i(a != 0 || b != 0)
	case oLand:
		return b2i(a != 0 && b != 0)
	}
	return e.binary(n.op, a, b, n.tok)
}

// binary applies a binary operator; tok is where the right operand's
// text starts, for the division error.
func (e *evaluator) binary(op opcode, a, b int64, tok int) int64 {
	switch op {
	case oOr:
		return a | b
	case oXor:
		return a ^ b
	case oAnd:
		return a & b
	case oEq:
		return b2i(a == b)
	case oNe:
		return b2i(a != b)
	case oLe:
		return b2i(a <= b)
	case oGe:
		return b2i(a >= b)
	case oLt:
		return b2i(a < b)
	case oGt:
		return b2i(a > b)
	case oShl:
		return a << (uint64(b) & 63)
	case oShr:
		return a >> (uint64(b) & 63)
	case oAdd:
		return a + b
	case oSub:
		return a - b
	case oMul:
		return a * b
	case oDiv, oMod:
		if b == 0 {
			if e.noeval > 0 {
				b = 1 // as bash does, in a branch not taken
			} else {
				e.failAt(tok, "division by 0")
			}
		}
		if b == -1 {
			if op == oDiv {
				return -a // wraps for the smallest value, as bash's does
			}
			return 0
		}
		if op == oDiv {
			return a / b
		}
		return a % b
	}
	return 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// index turns a subscript into what the Env expects: arithmetic for an
// indexed array, the key text for an associative one.
func (e *evaluator) index(name, sub string) string {
	if e.env.Assoc(name) {
		return sub
	}
	v, err := e.cache.eval(sub, e.env, e.depth+1)
	e.check(err)
	return strconv.FormatInt(v, 10)
}

// value reads a variable and evaluates its text as an expression; tok
// is where the variable is, for the recursion error.
func (e *evaluator) value(name, sub string, hasSub bool, tok int) int64 {
	var s string
	var err error
	if hasSub {
		s, _, err = e.env.GetElem(name, e.index(name, sub))
	} else {
		s, _, err = e.env.Get(name)
	}
	e.check(err)
	if s == "" {
		return 0
	}
	if v, ok := plainDecimal(s); ok {
		return v
	}
	if e.depth+1 >= MaxDepth {
		// bash names the expression holding the variable.
		e.failAt(tok, "expression recursion level exceeded")
	}
	v, err := e.cache.eval(s, e.env, e.depth+1)
	e.check(err)
	return v
}

func (e *evaluator) store(name, sub string, hasSub bool, v int64) {
	if hasSub {
		e.check(e.env.SetElem(name, e.index(name, sub), v))
		return
	}
	e.check(e.env.Set(name, v))
}

// plainDecimal reads s if it is a decimal integer of at most 18 digits
// without leading zeros (which would make it octal): the common value,
// read without evaluating it as an expression.
func plainDecimal(s string) (int64, bool) {
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	if s == "0" {
		return 0, true
	}
	if s == "" || s[0] < '1' || s[0] > '9' || len(s) > 18 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}
