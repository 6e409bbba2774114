package bc

import (
	"fmt"

	"github.com/bashbox/bashbox/coreutils/internal/bcnum"
)

const (
	dimMax = 16777215
	// maxDigits bounds the numbers one operation may build: beyond it an
	// operation could run for minutes without a chance to stop.
	maxDigits = 10000000
	baseMax   = 2147483647
	scaleMax  = 2147483647
	maxDepth  = 100000
)

// vm is the bc machine: the execution stack, the function stack of
// (function, address, ibase) frames, the variable and array stacks.
type vm struct {
	bc     *bc
	prog   *program
	stack  []num
	fstack []int
	vars   [][]num
	arrays [][]*array

	ibase, obase, scale int
	fn, addr            int
	runtimeError        bool
	steps               uint32
	rnd                 *glibcRandom
}

func newVM(b *bc) *vm {
	return &vm{bc: b, prog: b.prog, ibase: 10, obase: 10, rnd: newGlibcRandom(1)}
}

func (v *vm) fname() string { return v.prog.funcs[v.fn].name }

func (v *vm) rtError(format string, a ...any) {
	v.bc.flushOut()
	fmt.Fprintf(v.bc.c.Stderr, "Runtime error (func=%s, adr=%d): %s\n", v.fname(), v.addr, fmt.Sprintf(format, a...))
	v.runtimeError = true
}

func (v *vm) rtWarn(format string, a ...any) {
	v.bc.flushOut()
	fmt.Fprintf(v.bc.c.Stderr, "Runtime warning (func=%s, adr=%d): %s\n", v.fname(), v.addr, fmt.Sprintf(format, a...))
}

func (v *vm) byte() byte {
	code := v.prog.funcs[v.fn].code
	if v.addr >= len(code) {
		v.addr++
		return ':'
	}
	b := code[v.addr]
	v.addr++
	return b
}

func (v *vm) index() int {
	i := int(v.byte())
	if i&0x80 != 0 {
		i = (i&0x7f)<<8 + int(v.byte())
	}
	return i
}

func (v *vm) push(n num) { v.stack = append(v.stack, n) }

func (v *vm) pop() num {
	if len(v.stack) == 0 {
		return bcnum.Zero
	}
	n := v.stack[len(v.stack)-1]
	v.stack = v.stack[:len(v.stack)-1]
	return n
}

func (v *vm) top() num {
	if len(v.stack) == 0 {
		return bcnum.Zero
	}
	return v.stack[len(v.stack)-1]
}

func (v *vm) setTop(n num) {
	if len(v.stack) > 0 {
		v.stack[len(v.stack)-1] = n
	}
}

func (v *vm) checkStack(n int) bool {
	if len(v.stack) < n {
		v.rtError("Stack error.")
		return false
	}
	return true
}

func (v *vm) grow(vi int) {
	for len(v.vars) <= vi {
		v.vars = append(v.vars, nil)
	}
}

func (v *vm) growArr(ai int) {
	for len(v.arrays) <= ai {
		v.arrays = append(v.arrays, nil)
	}
}

func (v *vm) arr(ai int) *array {
	v.growArr(ai)
	s := v.arrays[ai]
	if len(s) == 0 {
		v.arrays[ai] = []*array{{}}
		s = v.arrays[ai]
	}
	return s[len(s)-1]
}

func (v *vm) loadVar(vi int) {
	switch vi {
	case 0:
		v.push(bcnum.Int(int64(v.ibase)))
	case 1:
		v.push(bcnum.Int(int64(v.obase)))
	case 2:
		v.push(bcnum.Int(int64(v.scale)))
	case 3:
		// history: -1 (no readline) until assigned.
		if vi < len(v.vars) && len(v.vars[vi]) > 0 {
			v.push(v.vars[vi][len(v.vars[vi])-1])
		} else {
			v.push(bcnum.Int(-1))
		}
	default:
		v.grow(vi)
		s := v.vars[vi]
		if len(s) == 0 {
			v.push(bcnum.Zero)
		} else {
			v.push(s[len(s)-1])
		}
	}
}

func (v *vm) setVar(vi int, n num) {
	v.grow(vi)
	s := v.vars[vi]
	if len(s) == 0 {
		v.vars[vi] = []num{n}
	} else {
		s[len(s)-1] = n
	}
}

func (v *vm) varValue(vi int) num {
	if vi < len(v.vars) {
		if s := v.vars[vi]; len(s) > 0 {
			return s[len(s)-1]
		}
	}
	return bcnum.Zero
}

// storeVar stores the top of the stack (left in place) into a variable,
// with the checks of the special variables.
func (v *vm) storeVar(vi int) {
	n := v.top()
	if vi >= 3 {
		v.setVar(vi, n)
		return
	}
	var temp int64
	toobig := false
	if n.IsNeg() {
		switch vi {
		case 0:
			v.rtWarn("negative ibase, set to 2")
			temp = 2
		case 1:
			v.rtWarn("negative obase, set to 2")
			temp = 2
		case 2:
			v.rtWarn("negative scale, set to 0")
			temp = 0
		}
	} else {
		temp = n.ToLong()
		if !n.IsZero() && temp == 0 {
			toobig = true
		}
	}
	switch vi {
	case 0:
		v.ibase = v.clampBase("ibase", temp, toobig, 36)
	case 1:
		v.obase = v.clampBase("obase", temp, toobig, baseMax)
	case 2:
		if temp > scaleMax || toobig {
			v.scale = scaleMax
			v.rtWarn("scale too large, set to %d", scaleMax)
		} else {
			v.scale = int(temp)
		}
	}
}

// clampBase is the value assigned to ibase or obase (name), kept within
// 2..max with bc's warning when it is outside.
func (v *vm) clampBase(name string, n int64, toobig bool, max int) int {
	switch {
	case n < 2 && !toobig:
		v.rtWarn("%s too small, set to 2", name)
		return 2
	case n > int64(max) || toobig:
		v.rtWarn("%s too large, set to %d", name, max)
		return max
	}
	return int(n)
}

// elementOnTop reads the array operand of an instruction and the index
// on top of the stack, reporting a missing or bad one.
func (v *vm) elementOnTop() (ai int, i int64, ok bool) {
	ai = v.index()
	if !v.checkStack(1) {
		return ai, 0, false
	}
	i, ok = v.arrayIndex(ai, v.top())
	return ai, i, ok
}

// arrayIndex reads an array index from n, reporting a bad one.
func (v *vm) arrayIndex(ai int, n num) (int64, bool) {
	i := n.ToLong()
	if i < 0 || i > dimMax || i == 0 && !n.IsZero() {
		v.rtError("Array %s subscript out of bounds.", v.prog.arrs.names[ai])
		return 0, false
	}
	return i, true
}

func (v *vm) incrVar(vi int, delta int64) {
	switch vi {
	case 0:
		v.ibase = v.stepBounded(v.ibase, delta, 2, 36, "ibase too small in --", "ibase too big in ++")
	case 1:
		v.obase = v.stepBounded(v.obase, delta, 2, baseMax, "obase too small in --", "obase too big in ++")
	case 2:
		v.scale = v.stepBounded(v.scale, delta, 0, scaleMax, "scale can not be negative in -- ", "Scale too big in ++")
	case 3:
	default:
		if delta > 0 {
			v.setVar(vi, bcnum.Add(v.varValue(vi), bcnum.One, 0))
		} else {
			v.setVar(vi, bcnum.Sub(v.varValue(vi), bcnum.One, 0))
		}
	}
}

// leaveFunction drops the current function's frame: its autos and
// parameters, and the return address.
func (v *vm) leaveFunction() {
	f := v.prog.funcs[v.fn]
	v.popVars(f.autos)
	v.popVars(f.params)
	n := len(v.fstack)
	v.fn, v.addr = v.fstack[n-3], v.fstack[n-2]
	v.fstack = v.fstack[:n-3]
}

// printEscapes are the characters of print's escapes; others print
// nothing, as in GNU bc.
var printEscapes = map[byte]byte{'a': 7, 'b': '\b', 'f': '\f', 'n': '\n', 'q': '"', 'r': '\r', 't': '\t', '\\': '\\'}

// stepBounded is n one up (delta > 0) or one down, kept within lo..hi with
// bc's warning when the step would leave them.
func (v *vm) stepBounded(n int, delta int64, lo, hi int, tooSmall, tooBig string) int {
	switch {
	case delta > 0 && n < hi:
		return n + 1
	case delta > 0:
		v.rtWarn("%s", tooBig)
	case n > lo:
		return n - 1
	default:
		v.rtWarn("%s", tooSmall)
	}
	return n
}

func (v *vm) autoVar(p param) {
	if p.array {
		v.growArr(p.id)
		v.arrays[p.id] = append(v.arrays[p.id], &array{})
		return
	}
	v.grow(p.id)
	v.vars[p.id] = append(v.vars[p.id], bcnum.Zero)
}

func (v *vm) popVars(list []param) {
	for _, p := range list {
		if p.array {
			if s := v.arrays[p.id]; len(s) > 0 {
				v.arrays[p.id] = s[:len(s)-1]
			}
		} else if p.id < len(v.vars) {
			if s := v.vars[p.id]; len(s) > 0 {
				v.vars[p.id] = s[:len(s)-1]
			}
		}
	}
}

// processParams binds a call's arguments to the parameters of fn.
func (v *vm) processParams(fn *function) bool {
	params := fn.params
	i := 0
	for {
		ch := v.byte()
		if ch == ':' {
			break
		}
		if i >= len(params) {
			v.rtError("Parameter number mismatch")
			return false
		}
		p := params[i]
		switch {
		case ch == '0' && !p.array:
			n := v.pop()
			v.grow(p.id)
			v.vars[p.id] = append(v.vars[p.id], n)
		case ch == '1' && p.array:
			src := int(v.pop().ToLong())
			v.growArr(src)
			a := v.arr(src)
			if p.byRef {
				v.growArr(p.id)
				v.arrays[p.id] = append(v.arrays[p.id], a)
			} else {
				v.growArr(p.id)
				v.arrays[p.id] = append(v.arrays[p.id], a.copy())
			}
		default:
			if p.array {
				v.rtError("Parameter type mismatch parameter %s.", v.prog.arrs.names[p.id])
			} else {
				v.rtError("Parameter type mismatch, parameter %s.", v.prog.vars.names[p.id])
			}
			// GNU then reads on to the end of the argument kinds and
			// reports a count mismatch there.
			for v.byte() != ':' {
			}
			v.runtimeError = false
			v.rtError("Parameter number mismatch")
			return false
		}
		i++
	}
	if i < len(params) {
		v.rtError("Parameter number mismatch")
		return false
	}
	return true
}

// execute runs the main function's code, as GNU bc's execute does.
func (v *vm) execute() {
	v.fn, v.addr = 0, 0
	v.runtimeError = false
	for !v.runtimeError && v.addr < len(v.prog.funcs[v.fn].code) {
		v.steps++
		if v.steps&1023 == 0 && v.bc.ctx.Err() != nil {
			v.bc.cancelled = true
			break
		}
		if v.bc.halted || v.bc.out.Failed() {
			break
		}
		inst := v.byte()
		switch inst {
		case 'A', 'M':
			ai, i, ok := v.elementOnTop()
			if !ok {
				break
			}
			v.pop()
			a := v.arr(ai)
			if inst == 'A' {
				a.set(i, bcnum.Add(a.get(i), bcnum.One, 0))
			} else {
				a.set(i, bcnum.Sub(a.get(i), bcnum.One, 0))
			}
		case 'B', 'Z', 'J':
			cond := false
			if inst != 'J' {
				cond = !v.pop().IsZero()
			}
			lab := int(v.byte())
			lab += int(v.byte()) << 8
			if inst == 'J' || inst == 'B' && cond || inst == 'Z' && !cond {
				addr, ok := v.prog.funcs[v.fn].labels[lab]
				if !ok {
					v.rtError("Internal error.")
					break
				}
				v.addr = addr
			}
		case 'C':
			fi := v.index()
			f := v.prog.funcs[fi]
			if !f.defined {
				v.rtError("Function %s not defined.", f.name)
				break
			}
			if !v.processParams(f) {
				break
			}
			if f.native != nil {
				args := make([]num, len(f.params))
				for k, p := range f.params {
					args[len(args)-1-k] = v.varValue(p.id)
				}
				r := f.native(v, args)
				v.popVars(f.params)
				v.push(r)
				break
			}
			for _, a := range f.autos {
				v.autoVar(a)
			}
			if len(v.fstack) >= 3*maxDepth {
				v.rtError("Function call nesting too deep.")
				break
			}
			v.fstack = append(v.fstack, v.fn, v.addr, v.ibase)
			v.fn, v.addr = fi, 0
		case 'D':
			v.push(v.top())
		case 'K':
			base := v.ibase
			if v.fn != 0 {
				base = v.fstack[len(v.fstack)-1]
			}
			if base == 10 {
				v.pushB10()
			} else {
				v.push(v.parseConst(v.byte, base))
			}
		case 'L':
			ai, i, ok := v.elementOnTop()
			if !ok {
				break
			}
			v.setTop(v.arr(ai).get(i))
		case 'O':
			for {
				ch := v.byte()
				if ch == '"' {
					break
				}
				if ch != '\\' {
					v.bc.outSchar(ch)
					continue
				}
				ch = v.byte()
				if ch == '"' {
					break
				}
				if e, ok := printEscapes[ch]; ok {
					v.bc.outSchar(e)
				}
			}
		case 'R':
			if v.fn != 0 {
				v.leaveFunction()
			} else {
				v.rtError("Return from main program.")
			}
		case 'S':
			ai := v.index()
			if !v.checkStack(2) {
				break
			}
			val := v.top()
			i, ok := v.arrayIndex(ai, v.stack[len(v.stack)-2])
			if !ok {
				break
			}
			v.arr(ai).set(i, val)
			v.pop()
			v.setTop(val)
		case 'T', '!':
			v.setTop(boolNum(v.top().IsZero()))
		case 'W', 'P':
			v.bc.outNum(v.top(), v.obase)
			if inst == 'W' {
				v.bc.outChar('\n')
			}
			v.storeVar(4)
			v.pop()
		case 'c':
			switch v.byte() {
			case 'L':
				v.setTop(bcnum.Int(int64(bcnum.Length(v.top()))))
			case 'S':
				v.setTop(bcnum.Int(int64(v.top().Scale)))
			case 'R':
				if max(v.scale, v.top().Scale)+v.top().IntLen() > maxDigits {
					v.rtError("number too large (more than %d digits)", maxDigits)
					break
				}
				r, ok := bcnum.Sqrt(v.top(), v.scale)
				if !ok {
					v.rtError("Square root of a negative number")
					break
				}
				v.setTop(r)
			case 'I':
				v.push(v.bc.readNumber(v.ibase))
			case 'X':
				v.push(bcnum.Int(int64(v.rnd.next())))
			}
		case 'd':
			v.incrVar(v.index(), -1)
		case 'h':
			v.bc.halted = true
		case 'i':
			v.incrVar(v.index(), 1)
		case 'l':
			v.loadVar(v.index())
		case 'n':
			v.setTop(bcnum.Sub(bcnum.Zero, v.top(), 0))
		case 'p':
			v.pop()
		case 's':
			v.storeVar(v.index())
		case 'w':
			for {
				ch := v.byte()
				if ch == '"' {
					break
				}
				v.bc.outSchar(ch)
			}
		case 'x':
			if v.checkStack(2) {
				n := len(v.stack)
				v.stack[n-1], v.stack[n-2] = v.stack[n-2], v.stack[n-1]
			}
		case '0':
			v.push(bcnum.Zero)
		case '1':
			v.push(bcnum.One)
		case '&', '|':
			if v.checkStack(2) {
				b := v.pop()
				a := v.top()
				var r bool
				if inst == '&' {
					r = !a.IsZero() && !b.IsZero()
				} else {
					r = !a.IsZero() || !b.IsZero()
				}
				v.setTop(boolNum(r))
			}
		case '+', '-', '*', '/', '%', '^':
			if !v.checkStack(2) {
				break
			}
			b := v.stack[len(v.stack)-1]
			a := v.stack[len(v.stack)-2]
			var r num
			if v.tooBig(inst, a, b) {
				break
			}
			switch inst {
			case '+':
				r = bcnum.Add(a, b, 0)
			case '-':
				r = bcnum.Sub(a, b, 0)
			case '*':
				r = bcnum.Mul(a, b, v.scale)
			case '/':
				q, ok := bcnum.Div(a, b, v.scale)
				if !ok {
					v.rtError("Divide by zero")
					break
				}
				r = q
			case '%':
				if b.IsZero() {
					v.rtError("Modulo by zero")
					break
				}
				r, _ = bcnum.Mod(a, b, v.scale)
			case '^':
				if b.Scale != 0 {
					v.rtWarn("non-zero scale in exponent")
				}
				var msg string
				r, msg = bcnum.Raise(a, b, v.scale)
				if msg != "" {
					v.rtError("%s", msg)
					break
				}
				if a.IsZero() && b.IsNeg() {
					v.rtError("divide by zero")
				}
			}
			if v.runtimeError {
				break
			}
			v.stack = v.stack[:len(v.stack)-2]
			v.push(r)
		case '=', '#', '<', '{', '>', '}':
			if !v.checkStack(2) {
				break
			}
			b := v.pop()
			c := bcnum.Cmp(v.top(), b)
			var r bool
			switch inst {
			case '=':
				r = c == 0
			case '#':
				r = c != 0
			case '<':
				r = c < 0
			case '{':
				r = c <= 0
			case '>':
				r = c > 0
			case '}':
				r = c >= 0
			}
			v.setTop(boolNum(r))
		default:
			v.rtError("bad instruction: inst=%c", inst)
		}
	}
	// Unwind the function frames and clear the stack.
	for v.fn != 0 && len(v.fstack) >= 3 {
		v.leaveFunction()
	}
	v.fn = 0
	v.stack = v.stack[:0]
}
