package bc

import (
	"fmt"
	"strings"
)

// Expression flags, as GNU bc's grammar tracks them.
const (
	exAssign = 0
	exReg    = 1
	exComp   = 2
	exParen  = 4
	exVoid   = 8
	exEmpty  = 16
)

// syntaxError aborts the current input item.
type syntaxError struct{}

// quitRequest is the quit statement, acted on as soon as it is parsed.
type quitRequest struct{}

// parser reads one source and generates code the way GNU bc's yacc
// grammar does, running each complete input item.
type parser struct {
	bc   *bc
	lex  *lexer
	tok  token
	have bool // tok holds a lookahead

	breakLabel, continueLabel, ifLabel, nextLabel int
	curFunc                                       int // -1 outside a function
	errStatus                                     int // tokens to shift before errors are reported again
}

// aborted ends the parse: end of input during error recovery.
type aborted struct{}

func (p *parser) peek() token {
	if !p.have {
		p.tok = p.lex.next()
		p.have = true
	}
	return p.tok
}

func (p *parser) take() token {
	t := p.peek()
	p.have = false
	if p.errStatus > 0 {
		p.errStatus--
	}
	return t
}

// discard drops the lookahead during error recovery.
func (p *parser) discard() { p.peek(); p.have = false }

func (p *parser) isChar(c string) bool {
	t := p.peek()
	return t.kind == tChar && t.text == c
}

func (p *parser) expectChar(c string) {
	if !p.isChar(c) {
		p.syntaxError()
	}
	p.take()
}

// syntaxError reports a syntax error at the lookahead token, unless one
// was reported less than three tokens ago (as bison does), and unwinds
// to the enclosing statement list.
func (p *parser) syntaxError() {
	if p.bc.unavailable {
		panic(aborted{})
	}
	if p.errStatus == 0 {
		p.bc.yyerror(p.lex.line, "syntax error")
	} else {
		p.bc.hadError = true
	}
	p.errStatus = 3
	panic(syntaxError{})
}

func (p *parser) yyerror(msg string) { p.bc.yyerror(p.lex.line, msg) }

func (p *parser) ctWarn(msg string) { p.bc.ctWarn(p.lex.line, msg) }

func (p *parser) gen(s string) { p.bc.generate(s) }

func (p *parser) label() int {
	l := p.nextLabel
	p.nextLabel++
	return l
}

// lookupName applies GNU's warning for non-POSIX names.
func (p *parser) warnName(name string) {
	if len(name) != 1 {
		p.ctWarn("multiple letter name - " + name)
	}
}

func (p *parser) lookupVar(name string) int {
	p.warnName(name)
	return p.bc.prog.lookupVar(name)
}

func (p *parser) lookupArray(name string) int {
	p.warnName(name)
	return p.bc.prog.lookupArray(name)
}

func (p *parser) lookupFunc(name string) int {
	p.warnName(name)
	return p.bc.prog.lookupFunc(name)
}

func (p *parser) initGen() {
	p.breakLabel, p.continueLabel = 0, 0
	p.nextLabel = 1
	p.bc.initGen()
}

// run parses the whole input, running each input item as it completes.
func (p *parser) run() {
	p.curFunc = -1
	p.initGen()
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case aborted:
			case quitRequest:
				p.bc.quit = true
			default:
				panic(r)
			}
		}
	}()
	for !p.bc.stopped() {
		if p.peek().kind == tEOF {
			return
		}
		p.item()
	}
}

// Recovery modes: what may follow the error token.
const (
	recStmtOnly  = iota // a statement
	recEOLOrStmt        // a statement, or the end of the line
)

// recoverTo discards tokens until one the error state accepts. It
// returns true when that was the end of the line (which it consumes).
func (p *parser) recoverTo(mode int) bool {
	for {
		t := p.peek()
		switch {
		case t.kind == tEOF:
			panic(aborted{})
		case t.kind == tEOL && mode == recEOLOrStmt:
			p.take()
			p.errStatus = 0
			return true
		case canStartStatement(t):
			return false
		}
		p.discard()
	}
}

// guard runs f, reporting whether it ended in a syntax error.
func (p *parser) guard(f func()) (failed bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(syntaxError); ok {
				failed = true
				return
			}
			panic(r)
		}
	}()
	f()
	return false
}

// item parses and runs one input item: a function definition or a line
// of statements.
func (p *parser) item() {
	errorEOL := false
	if p.peek().kind == tDefine {
		if !p.guard(p.function) {
			p.bc.runCode()
			if p.bc.didGen {
				p.initGen()
			}
			return
		}
		p.curFunc = -1
		if p.recoverTo(recEOLOrStmt) {
			errorEOL = true
		} else {
			errorEOL = p.semicolonList()
		}
	} else {
		errorEOL = p.semicolonList()
	}
	if errorEOL {
		// input_item: error ENDOFLINE
		p.initGen()
		return
	}
	if t := p.peek(); t.kind != tEOL {
		p.guard(p.syntaxError)
		p.recoverTo(recEOLOrStmt)
		p.initGen()
		return
	}
	p.take()
	p.bc.runCode()
	if p.bc.didGen {
		p.initGen()
	}
}

// semicolonList parses the statements of a line; it returns true when a
// syntax error was recovered by skipping to the end of the line.
func (p *parser) semicolonList() bool {
	afterSemi := false
	for {
		t := p.peek()
		switch {
		case t.kind == tChar && t.text == ";":
			p.take()
			afterSemi = true
			continue
		case t.kind == tEOL || t.kind == tEOF:
			return false
		}
		if p.guard(p.statement) {
			mode := recEOLOrStmt
			if afterSemi {
				mode = recStmtOnly
			}
			if p.recoverTo(mode) {
				return true
			}
			continue
		}
		afterSemi = false
		t = p.peek()
		if t.kind == tChar && t.text == ";" || t.kind == tEOL || t.kind == tEOF {
			continue
		}
		p.guard(p.syntaxError)
		if p.recoverTo(recEOLOrStmt) {
			return true
		}
	}
}

// canStartStatement reports whether t can begin a statement.
func canStartStatement(t token) bool {
	switch t.kind {
	case tString, tBreak, tContinue, tQuit, tHalt, tReturn, tFor, tIf, tWhile, tPrint, tWarranty, tLimits:
		return true
	case tChar:
		if t.text == "{" {
			return true
		}
	}
	return canStartExpr(t)
}

// canStartExpr reports whether t can begin an expression.
func canStartExpr(t token) bool {
	switch t.kind {
	case tNumber, tName, tNot, tIncr, tLength, tSqrt, tScale, tIbase, tObase, tLast, tHistory, tRead, tRandom:
		return true
	case tChar:
		return t.text == "(" || t.text == "-"
	}
	return false
}

func (p *parser) statement() {
	t := p.peek()
	switch t.kind {
	case tWarranty:
		p.take()
		p.bc.warranty()
	case tLimits:
		p.take()
		p.bc.limits()
	case tString:
		p.take()
		p.gen("w")
		p.gen(t.text)
	case tBreak:
		p.take()
		if p.breakLabel == 0 {
			p.yyerror("Break outside a for/while")
		} else {
			p.gen(fmt.Sprintf("J%d:", p.breakLabel))
		}
	case tContinue:
		p.take()
		p.ctWarn("Continue statement")
		if p.continueLabel == 0 {
			p.yyerror("Continue outside a for")
		} else {
			p.gen(fmt.Sprintf("J%d:", p.continueLabel))
		}
	case tQuit:
		p.take()
		panic(quitRequest{})
	case tHalt:
		p.take()
		p.gen("h")
	case tReturn:
		p.take()
		p.returnExpr()
		p.gen("R")
	case tFor:
		p.forStatement()
	case tIf:
		p.ifStatement()
	case tWhile:
		p.whileStatement()
	case tPrint:
		p.take()
		p.ctWarn("print statement")
		for {
			e := p.peek()
			if e.kind == tString {
				p.take()
				p.gen("O")
				p.gen(e.text)
			} else {
				f := p.expression()
				if f&exVoid != 0 {
					p.yyerror("void expression in print")
				}
				p.gen("P")
			}
			if !p.isChar(",") {
				break
			}
			p.take()
		}
	case tChar:
		if t.text == "{" {
			p.take()
			p.statementList()
			p.expectChar("}")
			return
		}
		fallthrough
	default:
		if !canStartExpr(t) {
			p.syntaxError()
		}
		f := p.expression()
		if f&exComp != 0 {
			p.ctWarn("comparison in expression")
		}
		if f&exReg != 0 {
			p.gen("W")
		} else {
			p.gen("p")
		}
	}
}

// statementList is the body of braces: statements separated by newlines
// or semicolons. A syntax error restarts it at the next statement.
func (p *parser) statementList() {
	for {
		t := p.peek()
		switch {
		case t.kind == tEOL || t.kind == tChar && t.text == ";":
			p.take()
			continue
		case t.kind == tChar && t.text == "}":
			return
		case t.kind == tEOF:
			p.syntaxError()
		}
		if p.guard(p.statement) {
			p.recoverTo(recStmtOnly)
			continue
		}
		t = p.peek()
		if t.kind == tEOL || t.kind == tChar && (t.text == ";" || t.text == "}") {
			continue
		}
		p.guard(p.syntaxError)
		p.recoverTo(recStmtOnly)
	}
}

func (p *parser) optNewline() {
	if p.peek().kind == tEOL {
		p.take()
		p.ctWarn("newline not allowed")
	}
}

func (p *parser) returnExpr() {
	if !canStartExpr(p.peek()) {
		p.gen("0")
		if p.curFunc == -1 {
			p.yyerror("Return outside of a function.")
		}
		return
	}
	f := p.expression()
	if f&exComp != 0 {
		p.ctWarn("comparison in return expresion")
	}
	if f&exParen == 0 {
		p.ctWarn("return expression requires parenthesis")
	}
	if f&exVoid != 0 {
		p.yyerror("return requires non-void expression")
	}
	if p.curFunc == -1 {
		p.yyerror("Return outside of a function.")
	} else if p.bc.prog.funcs[p.curFunc].void {
		p.yyerror("Return expression in a void function.")
	}
}

// optExpression is an expression or nothing (in for statements).
func (p *parser) optExpression() int {
	if !canStartExpr(p.peek()) {
		p.ctWarn("Missing expression in for statement")
		return exEmpty
	}
	return p.expression()
}

func (p *parser) forStatement() {
	p.take()
	saveBreak := p.breakLabel
	p.breakLabel = p.label()
	p.expectChar("(")
	f := p.optExpression()
	p.expectChar(";")
	if f&exComp != 0 {
		p.ctWarn("Comparison in first for expression")
	}
	if f&exVoid != 0 {
		p.yyerror("first expression is void")
	}
	if f&exEmpty == 0 {
		p.gen("p")
	}
	l4 := p.label()
	p.gen(fmt.Sprintf("N%d:", l4))
	f = p.optExpression()
	p.expectChar(";")
	if f&exVoid != 0 {
		p.yyerror("second expression is void")
	}
	if f&exEmpty != 0 {
		p.gen("1")
	}
	l7 := p.label()
	p.gen(fmt.Sprintf("B%d:J%d:", l7, p.breakLabel))
	saveContinue := p.continueLabel
	p.continueLabel = p.label()
	p.gen(fmt.Sprintf("N%d:", p.continueLabel))
	f = p.optExpression()
	p.expectChar(")")
	if f&exComp != 0 {
		p.ctWarn("Comparison in third for expression")
	}
	if f&exVoid != 0 {
		p.yyerror("third expression is void")
	}
	if f&exEmpty != 0 {
		p.gen(fmt.Sprintf("J%d:N%d:", l4, l7))
	} else {
		p.gen(fmt.Sprintf("pJ%d:N%d:", l4, l7))
	}
	p.optNewline()
	p.statement()
	p.gen(fmt.Sprintf("J%d:N%d:", p.continueLabel, p.breakLabel))
	p.breakLabel = saveBreak
	p.continueLabel = saveContinue
}

func (p *parser) ifStatement() {
	p.take()
	p.expectChar("(")
	f := p.expression()
	p.expectChar(")")
	if f&exVoid != 0 {
		p.yyerror("void expression")
	}
	saveIf := p.ifLabel
	p.ifLabel = p.label()
	p.gen(fmt.Sprintf("Z%d:", p.ifLabel))
	p.optNewline()
	p.statement()
	if p.peek().kind == tElse {
		p.take()
		p.ctWarn("else clause in if statement")
		l := p.label()
		p.gen(fmt.Sprintf("J%d:N%d:", l, p.ifLabel))
		p.ifLabel = l
		p.optNewline()
		p.statement()
	}
	p.gen(fmt.Sprintf("N%d:", p.ifLabel))
	p.ifLabel = saveIf
}

func (p *parser) whileStatement() {
	p.take()
	saveContinue := p.continueLabel
	p.continueLabel = p.label()
	p.gen(fmt.Sprintf("N%d:", p.continueLabel))
	p.expectChar("(")
	f := p.expression()
	if f&exVoid != 0 {
		p.yyerror("void expression")
	}
	saveBreak := p.breakLabel
	p.breakLabel = p.label()
	p.gen(fmt.Sprintf("Z%d:", p.breakLabel))
	p.expectChar(")")
	p.optNewline()
	p.statement()
	p.gen(fmt.Sprintf("J%d:N%d:", p.continueLabel, p.breakLabel))
	p.breakLabel = saveBreak
	p.continueLabel = saveContinue
}

// defineList reads parameter or auto declarations.
func (p *parser) defineList(allowRef bool) []param {
	var list []param
	for {
		byRef := false
		if allowRef && (p.isChar("*") || p.isChar("&")) {
			p.take()
			byRef = true
		}
		t := p.take()
		if t.kind != tName {
			p.syntaxError()
		}
		if p.isChar("[") {
			p.take()
			p.expectChar("]")
			list = append(list, param{id: p.lookupArray(t.text), array: true, byRef: byRef})
			if byRef {
				p.ctWarn("Call by variable arrays")
			}
		} else {
			if byRef {
				p.syntaxError()
			}
			list = append(list, param{id: p.lookupVar(t.text)})
		}
		if !p.isChar(",") {
			return list
		}
		p.take()
	}
}

func argStr(list []param) string {
	var parts []string
	for _, a := range list {
		s := ""
		if a.byRef {
			s = "*"
		}
		if a.array {
			s += itoa(-a.id)
		} else {
			s += itoa(a.id)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ",")
}

func (p *parser) checkParams(params, autos []param) {
	same := func(a, b param) bool { return a.id == b.id && a.array == b.array }
	for i, a := range params {
		for _, b := range params[i+1:] {
			if same(a, b) {
				p.yyerror("duplicate parameter names")
			}
		}
		if a.byRef {
			p.ctWarn("Variable array parameter")
		}
	}
	for i, a := range autos {
		for _, b := range autos[i+1:] {
			if same(a, b) {
				p.yyerror("duplicate auto variable names")
			}
		}
	}
	for _, a := range params {
		for _, b := range autos {
			if same(a, b) {
				p.yyerror("variables in parameter and auto lists")
			}
		}
	}
}

func (p *parser) function() {
	p.take() // define
	void := false
	if p.peek().kind == tVoid {
		p.take()
		void = true
		p.ctWarn("void functions")
	}
	name := p.take()
	if name.kind != tName {
		p.syntaxError()
	}
	p.expectChar("(")
	var params []param
	if !p.isChar(")") {
		params = p.defineList(true)
	}
	p.expectChar(")")
	p.optNewline()
	p.expectChar("{")
	n := 0
	for p.peek().kind == tEOL {
		p.take()
		n++
	}
	if n == 0 {
		p.ctWarn("End of line required")
	} else if n > 1 {
		p.ctWarn("Too many end of lines")
	}
	var autos []param
	if p.peek().kind == tAuto {
		p.take()
		autos = p.defineList(false)
		t := p.peek()
		if !(t.kind == tEOL || t.kind == tChar && t.text == ";") {
			p.syntaxError()
		}
		p.take()
	}
	p.checkParams(params, autos)
	fn := p.lookupFunc(name.text)
	p.curFunc = fn
	p.gen(fmt.Sprintf("F%d,%s.%s[", fn, argStr(params), argStr(autos)))
	p.bc.prog.funcs[fn].void = void
	saveLabel := p.nextLabel
	p.nextLabel = 1
	saveBreak, saveContinue := p.breakLabel, p.continueLabel
	p.breakLabel, p.continueLabel = 0, 0
	p.statementList()
	p.expectChar("}")
	p.gen("0R]")
	p.nextLabel = saveLabel
	p.breakLabel, p.continueLabel = saveBreak, saveContinue
	p.curFunc = -1
}
