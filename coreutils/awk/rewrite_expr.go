package awk

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	cquote "github.com/bashbox/bashbox/coreutils/internal/quote"

	"github.com/benhoyt/goawk/lexer"
)

// Expressions of the regenerated program (see rewrite.go): operands,
// calls, and the sized forms of sub, gsub and field assignment.

// printArgs renders print's and printf's arguments. A concatenation
// there is written out and dropped, never held: it is not sized.
func (g *gen) printArgs(list reflect.Value) string { return join(list, g.printArg) }

func (g *gen) printArg(v reflect.Value) string {
	if kind(v) == "BinaryExpr" && tok(node(v).FieldByName("Op")) == lexer.CONCAT {
		return g.concat(node(v))
	}
	return g.expr(v)
}

func (g *gen) exprList(list reflect.Value) string { return join(list, g.expr) }

// join renders the nodes of list with render, separated by commas.
func join(list reflect.Value, render func(reflect.Value) string) string {
	parts := make([]string, list.Len())
	for i := range parts {
		parts[i] = render(list.Index(i))
	}
	return strings.Join(parts, ", ")
}

// lvalue renders an assignable expression without enclosing parentheses.
func (g *gen) lvalue(v reflect.Value) string {
	n := node(v)
	switch kind(v) {
	case "VarExpr":
		g.noteScalar(n.FieldByName("Name").String())
		return rename(n.FieldByName("Name").String())
	case "IndexExpr":
		g.noteArray(n.FieldByName("Array").String())
		return rename(n.FieldByName("Array").String()) + "[" + g.exprList(n.FieldByName("Index")) + "]"
	case "FieldExpr":
		idx := n.FieldByName("Index")
		if kind(idx) == "NumExpr" {
			if f := node(idx).FieldByName("Value").Float(); f >= 0 && f == math.Trunc(f) && f < 1<<31 {
				// $2, not $(2): goawk reads a constant field
				// with one opcode only when it is not grouped.
				return "$" + strconv.Itoa(int(f))
			}
		}
		return "$(" + g.expr(idx) + ")"
	case "NamedFieldExpr":
		return "@(" + g.expr(n.FieldByName("Field")) + ")"
	case "GroupingExpr":
		return g.lvalue(n.FieldByName("Expr"))
	}
	panic("not an lvalue: " + kind(v))
}

// expr renders an expression so that it can stand as an operand anywhere:
// everything but primaries is parenthesized.
func (g *gen) expr(v reflect.Value) string {
	n := node(v)
	switch kind(v) {
	case "FieldExpr", "NamedFieldExpr", "IndexExpr":
		return g.lvalue(v)
	case "VarExpr":
		name := n.FieldByName("Name").String()
		if name == "FILENAME" {
			return nFilename + "()"
		}
		g.noteScalar(name)
		return rename(name)
	case "UnaryExpr":
		return "(" + tok(n.FieldByName("Op")).String() + g.expr(n.FieldByName("Value")) + ")"
	case "BinaryExpr":
		op := tok(n.FieldByName("Op"))
		if op == lexer.CONCAT {
			if parts := concatParts(n); allPlain(parts) {
				return g.presized(parts, g.concat(n))
			}
			return sized(g.concat(n))
		}
		l, r := g.expr(n.FieldByName("Left")), g.expr(n.FieldByName("Right"))
		return "(" + l + " " + op.String() + " " + r + ")"
	case "InExpr":
		g.noteArray(n.FieldByName("Array").String())
		return "((" + g.exprList(n.FieldByName("Index")) + ") in " + rename(n.FieldByName("Array").String()) + ")"
	case "CondExpr":
		return "(" + g.cond(n.FieldByName("Cond")) + " ? " + g.expr(n.FieldByName("True")) + " : " + g.expr(n.FieldByName("False")) + ")"
	case "NumExpr":
		return formatNum(n.FieldByName("Value").Float())
	case "StrExpr":
		if n.FieldByName("Regex").Bool() {
			return formatRegex(n.FieldByName("Value").String())
		}
		return quote(n.FieldByName("Value").String())
	case "RegExpr":
		return "($0 ~ " + formatRegex(n.FieldByName("Regex").String()) + ")"
	case "AssignExpr":
		if left := n.FieldByName("Left"); rebuildsRecord(left) {
			return g.fieldAssign(g.lvalue(left), g.expr(n.FieldByName("Right")))
		}
		return g.setsRS(n.FieldByName("Left"), "("+g.lvalue(n.FieldByName("Left"))+" = "+g.expr(n.FieldByName("Right"))+")")
	case "AugAssignExpr":
		return g.setsRS(n.FieldByName("Left"), "("+g.lvalue(n.FieldByName("Left"))+" "+tok(n.FieldByName("Op")).String()+"= "+g.expr(n.FieldByName("Right"))+")")
	case "IncrExpr":
		op := tok(n.FieldByName("Op")).String()
		lv := g.lvalue(n.FieldByName("Expr"))
		if n.FieldByName("Pre").Bool() {
			return g.setsRS(n.FieldByName("Expr"), "("+op+lv+")")
		}
		return g.setsRS(n.FieldByName("Expr"), "("+lv+op+")")
	case "CallExpr":
		return g.call(n)
	case "UserCallExpr":
		name := n.FieldByName("Name").String()
		args := n.FieldByName("Args")
		if native, ok := g.exts[name]; ok && !g.userFuncs[name] {
			parts := make([]string, args.Len())
			for i := range parts {
				parts[i] = g.regexArg(args.Index(i))
			}
			list := strings.Join(parts, ", ")
			if want, ok := g.defaultZero[name]; ok && args.Len() == want-1 {
				if list != "" {
					list += ", "
				}
				list += "$0"
			}
			if name == "gensub" {
				// The runtime's gensub charges what it builds (see
				// subst.go): the check is only brought forward.
				return "(((" + vSized + " = " + native + "(" + list + ")) == \"\" || " + forward(nDue, "") + " || 1) ? " + vSized + " : " + vSized + ")"
			}
			return native + "(" + list + ")"
		}
		fn := escape(name)
		if !g.counted[name] {
			return fn + "(" + g.exprList(args) + ")"
		}
		if args.Len() == 0 {
			return fn + "(0)"
		}
		return fn + "(" + strconv.Itoa(args.Len()) + ", " + g.exprList(args) + ")"
	case "MultiExpr":
		return "(" + g.exprList(n.FieldByName("Exprs")) + ")"
	case "GetlineExpr":
		return g.getline(n)
	case "GroupingExpr":
		inner := n.FieldByName("Expr")
		if kind(inner) == "StrExpr" && node(inner).FieldByName("Regex").Bool() {
			// A parenthesized regex constant still means $0 ~ /re/.
			return "($0 ~ " + formatRegex(node(inner).FieldByName("Value").String()) + ")"
		}
		return "(" + g.expr(inner) + ")"
	}
	panic("unknown expression " + kind(v))
}

// concat renders a concatenation chain a b c as one, which goawk joins
// in one step, rather than as (a b) c.
func (g *gen) concat(n reflect.Value) string {
	var l string
	if left := n.FieldByName("Left"); kind(left) == "BinaryExpr" && tok(node(left).FieldByName("Op")) == lexer.CONCAT {
		l = g.concat(node(left))
		l = l[1 : len(l)-1]
	} else {
		l = g.expr(left)
	}
	return "(" + l + " " + g.expr(n.FieldByName("Right")) + ")"
}

func (g *gen) call(n reflect.Value) string {
	fn := tok(n.FieldByName("Func"))
	args := n.FieldByName("Args")
	switch fn {
	case lexer.F_SYSTEM:
		return nSystem + "(" + g.exprList(args) + ")"
	case lexer.F_CLOSE:
		return nClose + "(" + g.exprList(args) + ")"
	case lexer.F_FFLUSH:
		if args.Len() == 0 {
			return nFlush + "(\"\", 1)"
		}
		return nFlush + "(" + g.exprList(args) + ", 0)"
	case lexer.F_SPLIT:
		// The array argument is a bare name.
		parts := []string{g.expr(args.Index(0)), g.arrayName(args.Index(1))}
		for i := 2; i < args.Len(); i++ {
			parts = append(parts, g.expr(args.Index(i)))
		}
		return "split(" + strings.Join(parts, ", ") + ")"
	case lexer.F_SUB, lexer.F_GSUB:
		parts := []string{g.expr(args.Index(0)), g.expr(args.Index(1))}
		if args.Len() > 2 {
			target := args.Index(2)
			lv := g.lvalue(target)
			call := fn.String() + "(" + strings.Join(append(parts, lv), ", ") + ")"
			if plain(target) {
				call = g.longSub(fn, args, call, lv)
			}
			return g.setsRS(target, call)
		}
		return g.longSub(fn, args, fn.String()+"("+strings.Join(parts, ", ")+")", "$0")
	case lexer.F_SPRINTF, lexer.F_TOLOWER, lexer.F_TOUPPER:
		call := fn.String() + "(" + g.exprList(args) + ")"
		if parts := list(args); fn == lexer.F_SPRINTF && allPlain(parts) {
			return g.presized(parts, call)
		}
		return sized(call)
	case lexer.F_LENGTH:
		if args.Len() == 1 && kind(args.Index(0)) == "VarExpr" && node(args.Index(0)).FieldByName("Name").String() != "FILENAME" {
			// length(x) takes an array or a scalar: not noted either way.
			return "length(" + rename(node(args.Index(0)).FieldByName("Name").String()) + ")"
		}
	}
	return fn.String() + "(" + g.exprList(args) + ")"
}

// longSub renders sub or gsub (call, goawk's own) on the plain target
// lv so that a target of sizedMin bytes or more is substituted by the
// runtime instead (see subst.go): cancellable, and charged as the result
// grows. The target is assigned only when something was replaced. The
// value is the number of replacements. A short target that grows long is
// charged once built, as other strings are.
func (g *gen) longSub(fn lexer.Token, args reflect.Value, call, lv string) string {
	global := "0"
	if fn == lexer.F_GSUB {
		global = "1"
	}
	native := nSubst + "(" + global + ", " + g.regexArg(args.Index(0)) + ", " + g.expr(args.Index(1)) + ", " + lv + ")"
	return "((length(" + lv + ") < " + strconv.Itoa(sizedMin) + ") ? " + sizedTarget(call, lv) + " : ((" + vSubCount + " = " + native + ") ? " +
		"((((" + lv + " = " + nSubOut + "()) == \"\") + " + forward(nDue, "") + ") ? " +
		vSubCount + " : " + vSubCount + ") : 0))"
}

// rebuildsRecord reports whether assigning lv, a field other than $0,
// rebuilds $0 (see fieldAssign).
func rebuildsRecord(lv reflect.Value) bool {
	for kind(lv) == "GroupingExpr" {
		lv = node(lv).FieldByName("Expr")
	}
	if kind(lv) != "FieldExpr" {
		return false
	}
	idx := node(lv).FieldByName("Index")
	return kind(idx) != "NumExpr" || node(idx).FieldByName("Value").Float() != 0
}

// fieldAssign renders lv = value for a field lv: the record that
// assignment rebuilds (about $0 and the value together) is charged
// before it is built when it is long, as a concatenation's result is, so
// that a record doubling by $(NF+1) = $0 never grows past the budget.
// The value is computed once, before the record's length is read and
// before the field's index, as goawk does.
func (g *gen) fieldAssign(lv, value string) string {
	return "((((" + vSized + " = length($0) + length(" + vFieldValue + " = " + value + ")) < " + strconv.Itoa(sizedMin) +
		" || " + forward(fPresize, vSized) + " || 1) ? (" +
		lv + " = " + vFieldValue + ") : \"\"))"
}

// regexArg renders an argument that is a pattern for a native function:
// a regex constant is passed as its text.
func (g *gen) regexArg(a reflect.Value) string {
	switch {
	case kind(a) == "StrExpr" && node(a).FieldByName("Regex").Bool():
		return quote(node(a).FieldByName("Value").String())
	case kind(a) == "RegExpr":
		return quote(node(a).FieldByName("Regex").String())
	}
	return g.expr(a)
}

func (g *gen) arrayName(v reflect.Value) string {
	if kind(v) == "VarExpr" {
		g.noteArray(node(v).FieldByName("Name").String())
		return rename(node(v).FieldByName("Name").String())
	}
	return g.expr(v)
}

// getline renders the three getline forms; the file and command forms
// read through the sandbox.
func (g *gen) getline(n reflect.Value) string {
	cmd, target, file := n.FieldByName("Command"), n.FieldByName("Target"), n.FieldByName("File")
	var call string
	switch {
	case !isNil(cmd):
		call = nGetCmd + "(" + g.expr(cmd) + ", RS)"
	case !isNil(file):
		call = nGetFile + "(" + g.expr(file) + ", RS)"
	default:
		if isNil(target) {
			return "(getline)"
		}
		return g.setsRS(target, "(getline "+g.lvalue(target)+")")
	}
	var assign string
	if isNil(target) {
		assign = "($0 = " + nRecord + "())"
	} else {
		assign = "(" + g.lvalue(target) + " = ((split(" + nRecord + "(), " + vSplit + ", " + noSplit + ") > 0) ? " + vSplit + "[1] : \"\"))"
	}
	return g.setsRS(target, "((("+vStatus+" = "+call+") > 0) ? (("+assign+" \"\") ? "+vStatus+" : "+vStatus+") : "+vStatus+")")
}

// setsRS wraps expr, which may assign lv, so that an assignment to RS
// is reported to the runtime: goawk drops the \r of \r\n line ends only
// while RS is a newline, and the runtime undoes that for the input files
// goawk opens then (see keepCR). The value and type of expr are kept.
func (g *gen) setsRS(lv reflect.Value, expr string) string {
	for kind(lv) == "GroupingExpr" {
		lv = node(lv).FieldByName("Expr")
	}
	if kind(lv) != "VarExpr" || node(lv).FieldByName("Name").String() != "RS" {
		return expr
	}
	return "(" + nSetRS + "((" + vRSValue + " = " + expr + ") \"\", RS) ? " + vRSValue + " : " + vRSValue + ")"
}

// formatNum renders a number constant exactly.
func formatNum(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "(-log(0))"
	case math.IsInf(f, -1):
		return "log(0)"
	case math.IsNaN(f):
		return "(-(log(-1)))"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if f < 0 {
		return "(" + s + ")"
	}
	return s
}

// quote renders s as an AWK string literal: AWK's escapes are C's, so
// control bytes without a letter of their own go in octal.
func quote(s string) string {
	return `"` + cquote.CBody(s, func(c byte) bool { return c < 0x20 || c == 0x7f }) + `"`
}

// formatRegex renders a regex constant: the lexer removed the backslash
// of every "\/", so each "/" is escaped again.
func formatRegex(r string) string {
	return "/" + strings.ReplaceAll(r, "/", `\/`) + "/"
}
