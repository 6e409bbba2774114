package awk

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/benhoyt/goawk/lexer"
	"github.com/benhoyt/goawk/parser"
)

// The sandbox never lets goawk touch the host: goawk opens files with
// os.Open and runs commands with os/exec, and has no hooks for either. So
// the program is parsed once as written (for goawk's syntax checking and
// error positions), then regenerated as AWK source in which every I/O
// construct that would reach the host is a call to one of our native
// functions (see runtime.go):
//
//	print ... > f, >> f, | cmd   ->  __bb_out(kind, dest, text)
//	getline [v] < f              ->  __bb_gf(f, RS) + __bb_rec()
//	cmd | getline [v]            ->  __bb_gc(cmd, RS) + __bb_rec()
//	system(cmd), close(x), fflush(x)
//
// Main input stays in goawk (so NR, FNR, getline, next, nextfile and range
// patterns keep goawk's semantics) but every input operand is handed to
// goawk as "-", which goawk reads from Config.Stdin: our reader serves the
// operand files through the sandbox one after the other. The user's ARGV
// and ARGC are renamed so that the program still sees the real operands,
// and FILENAME reads come from the reader. goawk is additionally run with
// NoExec, NoFileReads and NoFileWrites, so a construct this rewrite missed
// fails instead of reaching the host.
//
// The AST types live in goawk's internal/ast package, so they are read
// through reflection, by type and field name.

// Native function names. The prefix keeps them out of the user's way.
const (
	nOut        = "__bb_out"
	nGetFile    = "__bb_gf"
	nGetCmd     = "__bb_gc"
	nRecord     = "__bb_rec"
	nClose      = "__bb_close"
	nFlush      = "__bb_fflush"
	nSystem     = "__bb_system"
	nFilename   = "__bb_fname"
	nSkipFile   = "__bb_skipfile"
	nArg        = "__bb_arg"
	nSync       = "__bb_sync"
	nSetRS      = "__bb_rs"
	nHeld       = "__bb_held"
	nSubst      = "__bb_gsub"
	nSubOut     = "__bb_sr"
	nDue        = "__bb_due"
	vRSValue    = "__bb_rv"
	vStatus     = "__bb_s"
	vSplit      = "__bb_sa"
	vConv       = "__bb_cf"
	vText       = "__bb_t"
	vIndex      = "__bb_i"
	vArgv       = "__bb_ARGV"
	vFieldValue = "__bb_fv"
	vArgc       = "__bb_ARGC"
)

// noSplit is a regex that never matches: split() with it gives back the
// whole string as a numeric string, the way getline's results must be.
const noSplit = `"a^"`

type gen struct {
	b strings.Builder
	// ofmt: the program uses OFMT, so redirected prints must convert
	// numbers with OFMT rather than CONVFMT.
	ofmt bool
	// exts maps gawk extension names the program calls to their native
	// implementations.
	exts map[string]string
	// appendZero lists extension functions whose missing last argument
	// defaults to $0.
	defaultZero map[string]int
	userFuncs   map[string]bool
	// arrays and scalars are the program's global variables, locals the
	// parameters of the function being generated: the memory check
	// (checkFunc) measures the globals.
	arrays, scalars, locals map[string]bool
	prog                    *parser.Program
	// fn and params are the function being generated ("" in rules).
	fn     string
	params []string
	// counted are the functions with a hidden argument count.
	counted map[string]bool
}

// specials are awk's own variables, not counted as the program's data.
var specials = map[string]bool{"ARGC": true, "ARGV": true, "CONVFMT": true, "ENVIRON": true, "FILENAME": true,
	"FNR": true, "FS": true, "NF": true, "NR": true, "OFMT": true, "OFS": true, "ORS": true, "RLENGTH": true,
	"RS": true, "RSTART": true, "SUBSEP": true}

func (g *gen) noteArray(name string) {
	if !g.locals[name] && !specials[name] {
		g.arrays[name] = true
	}
}

func (g *gen) noteScalar(name string) {
	if !g.locals[name] && !specials[name] {
		g.scalars[name] = true
	}
}

// generate returns the sandbox version of prog.
func generate(prog *parser.Program, ofmt bool) (src string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	g := &gen{ofmt: ofmt, exts: extNames, defaultZero: extZeroArg, arrays: map[string]bool{}, scalars: map[string]bool{}, prog: prog}
	p := reflect.ValueOf(prog).Elem().FieldByName("ResolvedProgram").FieldByName("Program")
	g.userFuncs, g.counted = map[string]bool{}, map[string]bool{}
	for i := 0; i < p.FieldByName("Functions").Len(); i++ {
		f := p.FieldByName("Functions").Index(i).Elem()
		g.fn = f.FieldByName("Name").String()
		g.userFuncs[g.fn] = true
		for _, param := range f.FieldByName("Params").Interface().([]string) {
			if g.isArrayParam(param) {
				g.counted[g.fn] = true
			}
		}
	}
	g.fn = ""
	// The first BEGIN copies the real operands into the user's ARGV and
	// hands goawk "-" for each input file.
	g.w("BEGIN {\n" + vTick + " = 1\n" + vArgc + " = ARGC\nfor (" + vIndex + " = 0; " + vIndex + " < ARGC; " + vIndex + "++) {\n" +
		vArgv + "[" + vIndex + "] = ARGV[" + vIndex + "]\nARGV[" + vIndex + "] = " + nArg + "(" + vIndex + ", ARGV[" + vIndex + "])\n}\n}\n")
	begins := p.FieldByName("Begin")
	for i := 0; i < begins.Len(); i++ {
		g.w("BEGIN {\n")
		g.stmts(begins.Index(i))
		g.w("}\n")
	}
	// The last BEGIN applies the user's changes to ARGV and ARGC, unless
	// input has already been read.
	g.w("BEGIN {\nif (" + nSync + "()) {\nfor (" + vIndex + " = 1; " + vIndex + " < " + vArgc + "; " + vIndex + "++)\n" +
		"ARGV[" + vIndex + "] = " + nArg + "(" + vIndex + ", (" + vIndex + " in " + vArgv + ") ? " + vArgv + "[" + vIndex + "] : \"\")\n" +
		"ARGC = " + vArgc + "\n}\n}\n")
	// The rules are joined into one action, pattern P { body } becoming
	// if (P) { body }, after the tick: goawk sets up each action's run
	// (and each pattern's) separately, which cost awk_groupby a tenth
	// of its time. A rule with a range pattern stays a rule of its own.
	actions := p.FieldByName("Actions")
	open := false
	if actions.Len() > 0 {
		g.w("{\n" + g.tick())
		open = true
	}
	for i := 0; i < actions.Len(); i++ {
		a := actions.Index(i).Elem()
		pats := a.FieldByName("Pattern")
		body := a.FieldByName("Stmts")
		if pats.Len() == 2 {
			if open {
				g.w("}\n")
				open = false
			}
			g.w(g.expr(pats.Index(0)) + ", " + g.expr(pats.Index(1)))
			if !body.IsNil() {
				g.w(" ")
				g.block(body)
			}
			g.w("\n")
			continue
		}
		if !open {
			g.w("{\n")
			open = true
		}
		if pats.Len() == 1 {
			g.w("if (" + g.cond(pats.Index(0)) + ") ")
		}
		if body.IsNil() {
			g.w("print\n")
		} else {
			g.block(body)
			g.w("\n")
		}
	}
	if open {
		g.w("}\n")
	}
	ends := p.FieldByName("End")
	for i := 0; i < ends.Len(); i++ {
		g.w("END {\n")
		g.stmts(ends.Index(i))
		g.w("}\n")
	}
	funcs := p.FieldByName("Functions")
	for i := 0; i < funcs.Len(); i++ {
		f := funcs.Index(i).Elem()
		params := f.FieldByName("Params").Interface().([]string)
		g.fn, g.params = f.FieldByName("Name").String(), params
		// A function with array parameters has a hidden first one: how
		// many arguments the call passed (the arrays after them are the
		// frame's own).
		all := renameAll(params)
		if g.counted[g.fn] {
			all = append([]string{vArgCount}, all...)
		}
		g.w("function " + escape(g.fn) + "(" + strings.Join(all, ", ") + ") {\n" + vDepth + "++\n" + g.tick())
		g.locals = map[string]bool{}
		for _, p := range params {
			g.locals[p] = true
		}
		g.stmts(f.FieldByName("Body"))
		g.locals = nil
		g.w(g.pop() + "}\n")
		g.w(g.frameFunc())
		g.fn, g.params = "", nil
	}
	g.w(g.checkFunc())
	return g.b.String(), nil
}

func (g *gen) w(s string) { g.b.WriteString(s) }

func renameAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = rename(n)
	}
	return out
}

// rename maps the user's ARGV and ARGC to the copies the program sees,
// and escapes the user's other names.
func rename(name string) string {
	switch name {
	case "ARGV":
		return vArgv
	case "ARGC":
		return vArgc
	}
	return escape(name)
}

// escape keeps the user's names apart from the generated program's own
// (all "__bb_..."): a name starting with "__bb" gets a further "__bbu"
// in front, so that a program cannot reach the memory check's counters
// (BEGIN { __bb_c = -1 } would end the checks) or replace one of
// its functions. No generated name starts with "__bbu", and no
// unescaped name starts with "__bb", so no two names meet.
func escape(name string) string {
	if strings.HasPrefix(name, "__bb") {
		return "__bbu" + name
	}
	return name
}

// kind is the AST node type name of an interface value holding a node.
func kind(v reflect.Value) string {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	return v.Type().Name()
}

// node returns the struct behind an interface or pointer value.
func node(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	return v
}

func isNil(v reflect.Value) bool {
	return (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && v.IsNil()
}

func tok(v reflect.Value) lexer.Token { return lexer.Token(v.Int()) }

func (g *gen) stmts(list reflect.Value) {
	for i := 0; i < list.Len(); i++ {
		g.stmt(list.Index(i))
	}
}

func (g *gen) block(list reflect.Value) {
	g.w("{\n")
	g.stmts(list)
	g.w("}")
}

// loopBody is a loop's body, which runs the memory check.
func (g *gen) loopBody(list reflect.Value) {
	g.w("{\n" + g.tick())
	g.stmts(list)
	g.w("}")
}

func (g *gen) stmt(v reflect.Value) {
	n := node(v)
	switch kind(v) {
	case "PrintStmt", "PrintfStmt":
		g.w(g.print(v, false))
	case "ExprStmt":
		g.w(g.bare(n.FieldByName("Expr")))
	case "IfStmt":
		g.w("if (" + g.cond(n.FieldByName("Cond")) + ") ")
		g.block(n.FieldByName("Body"))
		if e := n.FieldByName("Else"); e.Len() > 0 {
			g.w(" else ")
			g.block(e)
		}
	case "ForStmt":
		g.w("for (")
		if pre := n.FieldByName("Pre"); !isNil(pre) {
			g.w(g.simple(pre))
		}
		g.w("; ")
		if c := n.FieldByName("Cond"); !isNil(c) {
			g.w(g.cond(c))
		}
		g.w("; ")
		if post := n.FieldByName("Post"); !isNil(post) {
			g.w(g.simple(post))
		}
		g.w(") ")
		g.loopBody(n.FieldByName("Body"))
	case "ForInStmt":
		g.noteScalar(n.FieldByName("Var").String())
		g.noteArray(n.FieldByName("Array").String())
		g.w("for (" + rename(n.FieldByName("Var").String()) + " in " + rename(n.FieldByName("Array").String()) + ") ")
		g.loopBody(n.FieldByName("Body"))
	case "WhileStmt":
		g.w("while (" + g.cond(n.FieldByName("Cond")) + ") ")
		g.loopBody(n.FieldByName("Body"))
	case "DoWhileStmt":
		g.w("do ")
		g.loopBody(n.FieldByName("Body"))
		g.w(" while (" + g.cond(n.FieldByName("Cond")) + ")")
	case "BreakStmt":
		g.w("break")
	case "ContinueStmt":
		g.w("continue")
	case "NextStmt":
		g.w("next")
	case "NextfileStmt":
		g.w("{\n" + nSkipFile + "()\nnextfile\n}")
	case "ExitStmt":
		if g.fn != "" {
			// The END rules run with no function frame left.
			g.w("{\n" + resetFrames)
		}
		g.w("exit")
		if s := n.FieldByName("Status"); !isNil(s) {
			g.w(" " + g.expr(s))
		}
		if g.fn != "" {
			g.w("\n}")
		}
	case "ReturnStmt":
		if s := n.FieldByName("Value"); !isNil(s) {
			g.w("{\n" + g.pop() + "return " + g.expr(s) + "\n}")
		} else {
			g.w("{\n" + g.pop() + "return\n}")
		}
	case "DeleteStmt":
		g.noteArray(n.FieldByName("Array").String())
		g.w("delete " + rename(n.FieldByName("Array").String()))
		if idx := n.FieldByName("Index"); idx.Len() > 0 {
			g.w("[" + g.exprList(idx) + "]")
		}
	case "BlockStmt":
		g.block(n.FieldByName("Body"))
	default:
		panic("unknown statement " + kind(v))
	}
	g.w("\n")
}

// simple renders the init or post statement of a for loop.
func (g *gen) simple(v reflect.Value) string {
	switch kind(v) {
	case "ExprStmt":
		return g.bare(node(v).FieldByName("Expr"))
	case "PrintStmt", "PrintfStmt":
		return g.print(v, true)
	}
	panic("unexpected statement in for loop: " + kind(v))
}

// print renders a print or printf statement; a redirected one becomes a
// call of __bb_out with the formatted text.
func (g *gen) print(v reflect.Value, inline bool) string {
	n := node(v)
	isPrintf := kind(v) == "PrintfStmt"
	args := n.FieldByName("Args")
	redirect := tok(n.FieldByName("Redirect"))
	dest := n.FieldByName("Dest")
	if isNil(dest) {
		name := "print"
		if isPrintf {
			name = "printf"
		}
		if args.Len() == 0 {
			return name
		}
		return name + " (" + g.printArgs(args) + ")"
	}
	var text, pre string
	if isPrintf {
		text = "sprintf(" + g.printArgs(args) + ")"
	} else if args.Len() == 0 {
		text = "$0 ORS"
	} else {
		parts := make([]string, args.Len())
		for i := range parts {
			parts[i] = g.printArg(args.Index(i))
		}
		text = strings.Join(parts, " OFS ") + " ORS"
		if g.ofmt && !inline {
			// print converts numbers with OFMT, concatenation with
			// CONVFMT: convert with CONVFMT set to OFMT.
			pre = vConv + " = CONVFMT\nCONVFMT = OFMT\n" + vText + " = " + text + "\nCONVFMT = " + vConv + "\n"
			text = vText
		}
	}
	k := 1
	switch redirect {
	case lexer.APPEND:
		k = 2
	case lexer.PIPE:
		k = 3
	}
	call := fmt.Sprintf("%s(%d, %s, %s)", nOut, k, g.expr(dest), text)
	if pre != "" {
		return "{\n" + pre + call + "\n}"
	}
	return call
}

// bare renders an expression statement: an assignment or increment
// without the parentheses g.expr puts around it, which goawk compiles into
// one opcode (IncrArrayGlobal, AugAssignArrayGlobal...) only when it is
// not grouped. expr renders these kinds as one parenthesized whole.
func (g *gen) bare(v reflect.Value) string {
	s := g.expr(v)
	switch kind(v) {
	case "AssignExpr", "AugAssignExpr", "IncrExpr":
		return s[1 : len(s)-1]
	}
	return s
}

// cond renders a condition (of if, while, for and ?:): a comparison
// without parentheses, which goawk compiles into a single compare-and-jump
// only when it is not grouped.
func (g *gen) cond(v reflect.Value) string {
	s := g.expr(v)
	if kind(v) == "BinaryExpr" {
		switch tok(node(v).FieldByName("Op")) {
		case lexer.EQUALS, lexer.NOT_EQUALS, lexer.LESS, lexer.LTE, lexer.GREATER, lexer.GTE:
			return s[1 : len(s)-1]
		}
	}
	return s
}
