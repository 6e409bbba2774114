package awk

import (
	"maps"

	"github.com/benhoyt/goawk/lexer"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// goawk has no allocation hook, so what a program holds is charged to the
// call's memory budget by code generated into the program:
//
//   - a check (checkFunc) runs every so many steps (rule passes, loop
//     iterations, function calls) and charges the global arrays and
//     scalars plus what the function frames were last measured to hold;
//   - a function's ticks measure its own frame (frameFunc): its scalar
//     parameters, the arrays it owns (parameters the call did not pass)
//     and, once, the arrays it was passed (they may be growing in it while
//     their owner's measure is stale);
//   - every string built by concatenation, sprintf, toupper, tolower,
//     gensub, sub and gsub that reaches sizedMin bytes is charged at once
//     (__bb_big) until the next check measures what is really held, and
//     the check is brought forward; a string can therefore grow at most
//     once past the budget, by doubling, between two checks.

// Names of the instrumentation's variables and functions.
const (
	fCheck     = "__bb_chk"
	fBig       = "__bb_big"
	fPresize   = "__bb_pre"
	fFrame     = "__bb_fm_"
	vTick      = "__bb_c" // steps left before the next check
	vScanElems = "__bb_se"
	vScanBytes = "__bb_sb"
	vArgCount  = "__bb_ac" // a function's hidden first parameter
	vDepth     = "__bb_d"  // function call depth
	vFrames    = "__bb_lc" // bytes held by each frame, by depth
	vFramesSum = "__bb_lt" // their sum
	vFrameEls  = "__bb_fe" // array elements at a frame's last walk
	vFrameLen  = "__bb_fb" // array bytes at a frame's last walk
	vSized     = "__bb_t"
	vSubCount  = "__bb_sv"
)

// checkSteps is how many steps (rule passes, loop iterations, calls) may
// pass between two checks.
const checkSteps = 1024

// sizedMin is the length from which a new string is charged when built:
// shorter ones are charged by the next check only.
const sizedMin = 4096

// resetFrames forgets the function frames (exit leaves them for END).
const resetFrames = vDepth + " = 0\n" + vFramesSum + " = 0\ndelete " + vFrames + "\ndelete " + vFrameEls + "\ndelete " + vFrameLen + "\n"

// sized wraps an expression that builds a string: one of sizedMin bytes
// or more is charged at once and brings the next check forward. The value
// is the string itself.
func sized(expr string) string {
	return "((length(" + vSized + " = " + expr + ") < " + strconv.Itoa(sizedMin) + " ? 0 : " +
		forward(fBig, vSized) + ") ? " + vSized + " : " + vSized + ")"
}

// forward renders a call of native (fBig, fPresize or nDue) with args,
// which charges what is being built and may bring the next check
// forward: it is passed the steps left and gives back the new count.
func forward(native, args string) string {
	if args != "" {
		args += ", "
	}
	return "(" + vTick + " = " + native + "(" + args + vTick + "))"
}

// sizedTarget wraps a sub or gsub call whose target is lv (evaluated
// again, so only a target without side effects): the value is the call's.
func sizedTarget(call, lv string) string {
	return "((" + vSubCount + " = " + call + ") + ((length(" + lv + ") < " + strconv.Itoa(sizedMin) + ") ? 0 : (" +
		forward(fBig, lv) + " && 0)))"
}

// presized renders expr, which builds a string from parts (operands of a
// concatenation, arguments of sprintf) that can be evaluated twice: their
// lengths are added up first, and a total of sizedMin or more is charged
// before the string is built, so that a string doubling past the budget
// is never built.
func (g *gen) presized(parts []reflect.Value, expr string) string {
	var lens []string
	fixed := 0 // the constants' length, known here
	for _, p := range parts {
		switch kind(p) {
		case "StrExpr":
			fixed += len(node(p).FieldByName("Value").String())
		case "NumExpr":
			fixed += len(formatNum(node(p).FieldByName("Value").Float()))
		default:
			lens = append(lens, "length("+g.expr(p)+")")
		}
	}
	if fixed > 0 || len(lens) == 0 {
		lens = append(lens, strconv.Itoa(fixed))
	}
	return "(((" + vSized + " = " + strings.Join(lens, " + ") + ") < " + strconv.Itoa(sizedMin) + " || " +
		forward(fPresize, vSized) + " || 1) ? " + expr + " : \"\")"
}

// concatParts are the operands of a concatenation chain.
func concatParts(n reflect.Value) []reflect.Value {
	left := n.FieldByName("Left")
	var parts []reflect.Value
	if kind(left) == "BinaryExpr" && tok(node(left).FieldByName("Op")) == lexer.CONCAT {
		parts = concatParts(node(left))
	} else {
		parts = []reflect.Value{left}
	}
	return append(parts, n.FieldByName("Right"))
}

func list(v reflect.Value) []reflect.Value {
	out := make([]reflect.Value, v.Len())
	for i := range out {
		out[i] = v.Index(i)
	}
	return out
}

func allPlain(parts []reflect.Value) bool {
	for _, p := range parts {
		switch kind(p) {
		case "NumExpr", "StrExpr":
			if kind(p) == "StrExpr" && node(p).FieldByName("Regex").Bool() {
				return false
			}
		default:
			if !plain(p) {
				return false
			}
		}
	}
	return true
}

// plain reports whether evaluating lvalue v twice is harmless: a
// variable, a constant field or an element indexed by variables and
// constants.
func plain(v reflect.Value) bool {
	for kind(v) == "GroupingExpr" {
		v = node(v).FieldByName("Expr")
	}
	simple := func(e reflect.Value) bool {
		switch kind(e) {
		case "VarExpr", "NumExpr", "StrExpr":
			return true
		}
		return false
	}
	switch kind(v) {
	case "VarExpr":
		return true
	case "FieldExpr":
		return simple(node(v).FieldByName("Index"))
	case "IndexExpr":
		idx := node(v).FieldByName("Index")
		for i := 0; i < idx.Len(); i++ {
			if !simple(idx.Index(i)) {
				return false
			}
		}
		return true
	}
	return false
}

// tick counts a step down and runs the check when none is left; in a
// function it measures the frame first. It is a bare decrement and a test
// of a variable with an empty branch, which goawk compiles into its
// cheapest opcodes (IncrGlobal, Global, JumpFalse, Jump). Counting up
// to a second variable (Global, Global, JumpLess) cost 40% more: the
// tick of every record took 8% of awk_groupby's instructions, now 6%.
func (g *gen) tick() string {
	check := fCheck + "(0)"
	if g.fn != "" {
		count := "0"
		if g.counted[g.fn] {
			count = vArgCount
		}
		check = fFrame + g.fn + "(" + strings.Join(append([]string{count}, g.frameParams()...), ", ") + ")"
	}
	return vTick + "--\nif (" + vTick + ") ; else " + check + "\n"
}

// frameParams are the parameters of the current function whose type goawk
// knows (a parameter never used has none and holds nothing).
func (g *gen) frameParams() []string {
	var out []string
	for _, p := range g.params {
		if _, info, ok := g.prog.LookupVar(g.fn, p); ok {
			if t := info.Type.String(); t == "array" || t == "scalar" {
				out = append(out, rename(p))
			}
		}
	}
	return out
}

func (g *gen) isArrayParam(p string) bool {
	_, info, ok := g.prog.LookupVar(g.fn, p)
	return ok && info.Type.String() == "array"
}

// pop ends a function's frame: what it was charged is given back. A
// return value is computed after it, uncharged, like a rule's values
// between checks.
func (g *gen) pop() string {
	var b strings.Builder
	// Frames are charged (their sum is not 0) only once a check ran in a
	// function: the others pay one test. A frame measured at 0 may leave
	// its entries for the next frame at its depth, which starts from them.
	b.WriteString("if (" + vFramesSum + ") {\n" + vFramesSum + " -= " + vFrames + "[" + vDepth + "]\ndelete " + vFrames + "[" + vDepth + "]\n")
	for i, p := range g.params {
		if g.isArrayParam(p) {
			k := "[" + vDepth + ", " + strconv.Itoa(i+1) + "]"
			b.WriteString("delete " + vFrameEls + k + "\ndelete " + vFrameLen + k + "\n")
		}
	}
	b.WriteString("}\n" + vDepth + "--\n")
	return b.String()
}

// frameFunc is the current function's frame measure: it is passed the
// hidden argument count and the parameters, records the bytes the frame
// owns, and runs the check with the bytes of the arrays it was passed.
// An array's bytes are walked when its element count has doubled or
// halved since the frame last walked it, and estimated in between (a
// passed array from the global arrays' average, as its owner walks it).
func (g *gen) frameFunc() string {
	params := g.frameParams()
	var b strings.Builder
	locals := []string{"__bb_o", "__bb_a", "__bb_e", "__bb_n", "__bb_j", "__bb_q"}
	b.WriteString("function " + fFrame + g.fn + "(" + strings.Join(append(append([]string{vArgCount}, params...), locals...), ", ") + ") {\n")
	for i, p := range g.params {
		name := rename(p)
		if !slices.Contains(params, name) {
			continue
		}
		pos := strconv.Itoa(i + 1)
		if !g.isArrayParam(p) {
			b.WriteString("__bb_o += length(" + name + ")\n")
			continue
		}
		k := vFrameEls + "[__bb_q]"
		b.WriteString("__bb_e = length(" + name + ")\n" +
			"if (" + vArgCount + " < " + pos + ") {\n" +
			"__bb_q = " + vDepth + " SUBSEP " + pos + "\n" +
			"if (__bb_e >= 2 * " + k + " || 2 * __bb_e < " + k + ") {\n" +
			"__bb_n = 0\nfor (__bb_j in " + name + ") __bb_n += length(__bb_j) + length(" + name + "[__bb_j])\n" +
			k + " = __bb_e + 1\n" + vFrameLen + "[__bb_q] = __bb_n\n" +
			"} else __bb_n = __bb_e * " + vFrameLen + "[__bb_q] / " + k + "\n" +
			"__bb_o += __bb_n + __bb_e * " + strconv.Itoa(elementCost) + "\n" +
			"} else __bb_a += __bb_e * (" + strconv.Itoa(elementCost) + " + (" + vScanElems + " ? " + vScanBytes + " / " + vScanElems + " : 16))\n")
	}
	b.WriteString(vFramesSum + " += __bb_o - " + vFrames + "[" + vDepth + "]\n" + vFrames + "[" + vDepth + "] = __bb_o\n" + fCheck + "(__bb_a)\n}\n")
	return b.String()
}

// checkFunc is the check. It charges (through __bb_held) the global
// arrays' elements and bytes, the global scalars' bytes, the frames'
// bytes and extra (the passed arrays of the frame that runs it). Counting
// elements costs one length() per array; the bytes of keys and values
// are measured by walking the arrays only when the element count has
// doubled or halved since the last walk, and estimated from that walk's
// average in between, so that checking costs a constant per step however
// large the arrays are. __bb_held says when the next check is due.
func (g *gen) checkFunc() string {
	var b strings.Builder
	b.WriteString("function " + fCheck + "(__bb_x, __bb_k, __bb_n, __bb_e) {\n")
	for v := range g.scalars {
		// A name seen only as a value may be an array that the program
		// passes to functions: goawk's resolver knows.
		if _, info, ok := g.prog.LookupVar("", v); ok && info.Type.String() == "array" {
			g.arrays[v] = true
		}
	}
	// A name also seen as a scalar is an array passed to a function
	// (goawk refuses a scalar that is indexed).
	arrays := slices.Sorted(maps.Keys(g.arrays))
	for _, a := range arrays {
		b.WriteString("__bb_e += length(" + rename(a) + ")\n")
	}
	b.WriteString("if (__bb_e >= 2 * " + vScanElems + " || 2 * __bb_e < " + vScanElems + ") {\n")
	for _, a := range arrays {
		a = rename(a)
		b.WriteString("for (__bb_k in " + a + ") __bb_n += length(__bb_k) + length(" + a + "[__bb_k])\n")
	}
	b.WriteString(vScanElems + " = __bb_e + 1\n" + vScanBytes + " = __bb_n\n} else __bb_n = __bb_e * " + vScanBytes + " / " + vScanElems + "\n")
	for _, v := range slices.Sorted(maps.Keys(g.scalars)) {
		if !g.arrays[v] {
			b.WriteString("__bb_n += length(" + rename(v) + ")\n")
		}
	}
	// The record and its fields (goawk keeps both).
	b.WriteString("__bb_n += 2 * length($0)\n")
	b.WriteString(vTick + " = " + nHeld + "(__bb_n + " + vFramesSum + " + __bb_x, __bb_e)\n}\n")
	return b.String()
}
