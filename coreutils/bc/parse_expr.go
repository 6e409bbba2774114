package bc

import "fmt"

// Expressions: precedence climbing over bc's operators, generating the
// machine's code as GNU bc's grammar actions do.

// Operator precedences, lowest first, as in bc.y.
const (
	precOr = 1 + iota
	precAnd
	precNot
	precRel
	precAssign
	precAdd
	precMul
	precPow
	precNeg
)

func (p *parser) expression() int { return p.expr(precOr) }

// expr parses an expression whose binary operators bind at least as
// tightly as minPrec, generating code as the grammar's actions do.
func (p *parser) expr(minPrec int) int { return p.binary(p.unary(), minPrec) }

// binary continues an expression whose left operand (flags f) is parsed.
func (p *parser) binary(f, minPrec int) int {
	for {
		t := p.peek()
		switch {
		case t.kind == tOr && minPrec <= precOr:
			p.take()
			p.ctWarn("|| operator")
			l := p.label()
			p.gen(fmt.Sprintf("B%d:", l))
			r := p.operand(f, precOr+1, "void expression with ||")
			tmp := p.label()
			p.gen(fmt.Sprintf("B%d:0J%d:N%d:1N%d:", l, tmp, l, tmp))
			f = (f | r) &^ exParen
		case t.kind == tAnd && minPrec <= precAnd:
			p.take()
			p.ctWarn("&& operator")
			l := p.label()
			p.gen(fmt.Sprintf("DZ%d:p", l))
			r := p.operand(f, precAnd+1, "void expression with &&")
			p.gen(fmt.Sprintf("DZ%d:p1N%d:", l, l))
			f = (f | r) &^ exParen
		case t.kind == tRel && minPrec <= precRel:
			p.take()
			p.operand(f, precRel+1, "void expression with comparison")
			p.gen(relOps[t.text])
			f = exReg | exComp
		case t.kind == tChar && (t.text == "+" || t.text == "-") && minPrec <= precAdd,
			t.kind == tChar && (t.text == "*" || t.text == "/" || t.text == "%") && minPrec <= precMul,
			t.kind == tChar && t.text == "^" && minPrec <= precPow:
			p.take()
			prec := precPow
			if t.text == "+" || t.text == "-" {
				prec = precMul
			}
			r := p.operand(f, prec, "void expression with "+t.text)
			p.gen(t.text)
			f = (f | r) &^ exParen
		default:
			return f
		}
	}
}

// subscript parses an array subscript after its "[", through the "]",
// generating its code.
func (p *parser) subscript() {
	f := p.expression()
	p.expectChar("]")
	if f&exVoid != 0 {
		p.yyerror("void expression as subscript")
	}
	if f&exComp != 0 {
		p.ctWarn("comparison in subscript")
	}
}

// relOps are the comparison operators' codes for the machine.
var relOps = map[string]string{"==": "=", "!=": "#", "<": "<", "<=": "{", ">": ">", ">=": "}"}

// operand parses the right operand of a binary operator whose left
// operand has flags f; neither may be void (a call of a void function).
func (p *parser) operand(f, prec int, voidMsg string) int {
	r := p.expr(prec)
	if f&exVoid != 0 || r&exVoid != 0 {
		p.yyerror(voidMsg)
	}
	return r
}

// named is a named expression: a simple variable (index >= 0) or an
// array element (index < 0, subscript code already generated).
type named struct{ idx int }

// namedExpr parses NAME, NAME[expr], ibase, obase, scale, history, last.
func (p *parser) namedExpr() named { return p.namedFrom(p.take()) }

// namedFrom is namedExpr with its first token already taken.
func (p *parser) namedFrom(t token) named {
	switch t.kind {
	case tIbase:
		return named{0}
	case tObase:
		return named{1}
	case tScale:
		return named{2}
	case tHistory:
		p.ctWarn("History variable")
		return named{3}
	case tLast:
		p.ctWarn("Last variable")
		return named{4}
	case tName:
		if p.isChar("[") {
			p.take()
			p.subscript()
			return named{-p.lookupArray(t.text)}
		}
		return named{p.lookupVar(t.text)}
	}
	p.syntaxError()
	return named{}
}

func (p *parser) unary() int {
	t := p.peek()
	switch {
	case t.kind == tNot:
		p.take()
		f := p.expr(precNot + 1)
		if f&exVoid != 0 {
			p.yyerror("void expression with !")
		}
		p.ctWarn("! operator")
		p.gen("!")
		return f &^ exParen
	case t.kind == tChar && t.text == "-":
		p.take()
		f := p.unary()
		if f&exVoid != 0 {
			p.yyerror("void expression with unary -")
		}
		p.gen("n")
		return f &^ exParen
	case t.kind == tIncr:
		p.take()
		n := p.namedExpr()
		if n.idx < 0 {
			if t.text == "+" {
				p.gen(fmt.Sprintf("DA%d:L%d:", -n.idx, -n.idx))
			} else {
				p.gen(fmt.Sprintf("DM%d:L%d:", -n.idx, -n.idx))
			}
		} else if t.text == "+" {
			p.gen(fmt.Sprintf("i%d:l%d:", n.idx, n.idx))
		} else {
			p.gen(fmt.Sprintf("d%d:l%d:", n.idx, n.idx))
		}
		return exReg
	case t.kind == tChar && t.text == "(":
		p.take()
		f := p.expression()
		p.expectChar(")")
		if f&exVoid != 0 {
			p.yyerror("void expression in parenthesis")
		}
		return f | exReg | exParen
	case t.kind == tNumber:
		p.take()
		switch t.text {
		case "0", "1":
			p.gen(t.text)
		default:
			p.gen("K")
			p.gen(t.text)
			p.gen(":")
		}
		return exReg
	case t.kind == tLength || t.kind == tSqrt:
		p.take()
		p.expectChar("(")
		f := p.expression()
		p.expectChar(")")
		if t.kind == tLength {
			if f&exVoid != 0 {
				p.yyerror("void expression in length()")
			}
			p.gen("cL")
		} else {
			if f&exVoid != 0 {
				p.yyerror("void expression in sqrt()")
			}
			p.gen("cR")
		}
		return exReg
	case t.kind == tRead || t.kind == tRandom:
		p.take()
		p.expectChar("(")
		p.expectChar(")")
		if t.kind == tRead {
			p.ctWarn("read function")
			p.gen("cI")
		} else {
			p.ctWarn("random function")
			p.gen("cX")
		}
		return exReg
	case t.kind == tScale:
		p.take()
		if p.isChar("(") {
			p.take()
			f := p.expression()
			p.expectChar(")")
			if f&exVoid != 0 {
				p.yyerror("void expression in scale()")
			}
			p.gen("cS")
			return exReg
		}
		return p.afterNamed(named{2})
	case t.kind == tName:
		p.take()
		if p.isChar("(") {
			return p.call(t.text)
		}
		return p.afterNamed(p.namedFrom(t))
	case t.kind == tIbase || t.kind == tObase || t.kind == tHistory || t.kind == tLast:
		return p.afterNamed(p.namedExpr())
	}
	p.syntaxError()
	return 0
}

// afterNamed finishes a named expression: an assignment, a postfix
// increment, or a load.
func (p *parser) afterNamed(n named) int {
	t := p.peek()
	switch t.kind {
	case tAssign:
		p.take()
		if t.text != "=" {
			if n.idx < 0 {
				p.gen(fmt.Sprintf("DL%d:", -n.idx))
			} else {
				p.gen(fmt.Sprintf("l%d:", n.idx))
			}
		}
		f := p.expr(precAssign)
		if f&exVoid != 0 {
			p.yyerror("Assignment of a void expression")
		}
		if t.text != "=" {
			p.gen(t.text)
		}
		if n.idx < 0 {
			p.gen(fmt.Sprintf("S%d:", -n.idx))
		} else {
			p.gen(fmt.Sprintf("s%d:", n.idx))
		}
		return exAssign
	case tIncr:
		p.take()
		if n.idx < 0 {
			p.gen(fmt.Sprintf("DL%d:x", -n.idx))
			if t.text == "+" {
				p.gen(fmt.Sprintf("A%d:", -n.idx))
			} else {
				p.gen(fmt.Sprintf("M%d:", -n.idx))
			}
		} else {
			p.gen(fmt.Sprintf("l%d:", n.idx))
			if t.text == "+" {
				p.gen(fmt.Sprintf("i%d:", n.idx))
			} else {
				p.gen(fmt.Sprintf("d%d:", n.idx))
			}
		}
		return exReg
	}
	if n.idx < 0 {
		p.gen(fmt.Sprintf("L%d:", -n.idx))
	} else {
		p.gen(fmt.Sprintf("l%d:", n.idx))
	}
	return exReg
}

// call parses a function call's arguments (the name is taken).
func (p *parser) call(name string) int {
	p.take() // (
	var args []byte
	if !p.isChar(")") {
		for {
			var f int
			t := p.peek()
			if t.kind == tName {
				p.take()
				switch {
				case p.isChar("["):
					p.take()
					if p.isChar("]") {
						// NAME [ ] passes an array.
						p.take()
						p.gen(fmt.Sprintf("K%d:", p.lookupArray(t.text)))
						args = append(args, '1')
						goto next
					}
					p.subscript()
					f = p.binary(p.afterNamed(named{-p.lookupArray(t.text)}), precOr)
				case p.isChar("("):
					f = p.binary(p.call(t.text), precOr)
				default:
					f = p.binary(p.afterNamed(p.namedFrom(t)), precOr)
				}
			} else {
				f = p.expression()
			}
			p.argChecks(f)
			args = append(args, '0')
		next:
			if !p.isChar(",") {
				break
			}
			p.take()
		}
	}
	p.expectChar(")")
	fn := p.lookupFunc(name)
	flags := exReg
	if p.bc.prog.funcs[fn].void {
		flags = exVoid
	}
	if len(args) > 0 {
		// GNU lists the argument kinds last to first.
		rev := make([]byte, len(args))
		for i, a := range args {
			rev[len(args)-1-i] = a
		}
		p.gen(fmt.Sprintf("C%d,%s:", fn, rev))
	} else {
		p.gen(fmt.Sprintf("C%d:", fn))
	}
	return flags
}

func (p *parser) argChecks(f int) {
	if f&exComp != 0 {
		p.ctWarn("comparison in argument")
	}
	if f&exVoid != 0 {
		p.yyerror("void argument")
	}
}
