package dc

import (
	"math/big"
	"strconv"

	"github.com/bashbox/bashbox/coreutils/internal/bcnum"
)

// command runs the one-character commands that need no operand text.
func (m *machine) command(ch byte) {
	switch ch {
	case 'p':
		if m.need(1) {
			m.print(m.stack[len(m.stack)-1], true)
		}
	case 'n':
		if m.need(1) {
			m.print(m.pop(), false)
		}
	case 'P':
		if !m.need(1) {
			return
		}
		v := m.pop()
		if v.isStr {
			m.out.WriteString(v.s)
			return
		}
		ip, _ := bcnum.Div(bcnum.Abs(v.n), bcnum.One, 0)
		m.out.Write(ip.V.Bytes())
	case 'f':
		for i := len(m.stack) - 1; i >= 0; i-- {
			m.print(m.stack[i], true)
		}
	case '+', '-', '*', '/', '%', '^':
		m.binary(ch)
	case '~':
		ns, ok := m.nums(2)
		if !ok {
			return
		}
		if ns[1].IsZero() {
			m.errorf("divide by zero")
			m.restore(ns...)
			return
		}
		q, _ := bcnum.Div(ns[0], ns[1], m.scale)
		r, _ := bcnum.Mod(ns[0], ns[1], m.scale)
		m.restore(q, r)
	case '|':
		ns, ok := m.nums(3)
		if !ok {
			return
		}
		base, exp, mod := ns[0], ns[1], ns[2]
		if mod.IsZero() {
			m.errorf("modulo by zero")
			m.restore(ns...)
			return
		}
		if exp.IsNeg() {
			m.errorf("negative exponent")
			m.restore(ns...)
			return
		}
		bi, _ := bcnum.Div(base, bcnum.One, 0)
		ei, _ := bcnum.Div(exp, bcnum.One, 0)
		mi, _ := bcnum.Div(mod, bcnum.One, 0)
		r := new(big.Int).Exp(bi.V, ei.V, new(big.Int).Abs(mi.V))
		if bi.V.Sign() < 0 && r.Sign() != 0 {
			// C's remainder keeps the dividend's sign.
			r.Sub(r, new(big.Int).Abs(mi.V))
		}
		m.pushNum(bcnum.Num{V: r})
	case 'v':
		ns, ok := m.nums(1)
		if !ok {
			return
		}
		r, ok := bcnum.Sqrt(ns[0], m.scale)
		if !ok {
			m.errorf("square root of negative number")
			return
		}
		m.pushNum(r)
	case 'c':
		m.stack = m.stack[:0]
	case 'd':
		if m.need(1) {
			m.push(m.stack[len(m.stack)-1])
		}
	case 'r':
		if m.need(2) {
			n := len(m.stack)
			m.stack[n-1], m.stack[n-2] = m.stack[n-2], m.stack[n-1]
		}
	case 'z':
		m.pushNum(bcnum.Int(int64(len(m.stack))))
	case 'Z':
		if !m.need(1) {
			return
		}
		v := m.pop()
		if v.isStr {
			m.pushNum(bcnum.Int(int64(len(v.s))))
		} else if v.n.IsZero() {
			m.pushNum(bcnum.Int(0))
		} else {
			m.pushNum(bcnum.Int(int64(bcnum.Length(v.n))))
		}
	case 'X':
		if !m.need(1) {
			return
		}
		v := m.pop()
		if v.isStr {
			m.pushNum(bcnum.Zero)
		} else {
			m.pushNum(bcnum.Int(int64(v.n.Scale)))
		}
	case 'k':
		m.setParam(ch, func(v int64) bool { return v >= 0 }, "scale must be a nonnegative number", &m.scale)
	case 'i':
		m.setParam(ch, func(v int64) bool { return v >= 2 && v <= 16 }, "input base must be a number between 2 and 16 (inclusive)", &m.ibase)
	case 'o':
		m.setParam(ch, func(v int64) bool { return v >= 2 }, "output base must be a number greater than 1", &m.obase)
	case 'K':
		m.pushNum(bcnum.Int(int64(m.scale)))
	case 'I':
		m.pushNum(bcnum.Int(int64(m.ibase)))
	case 'O':
		m.pushNum(bcnum.Int(int64(m.obase)))
	case 'a':
		if !m.need(1) {
			return
		}
		v := m.pop()
		if v.isStr {
			if v.s != "" {
				v.s = v.s[:1]
			}
			m.push(v)
			return
		}
		ip, _ := bcnum.Div(v.n, bcnum.One, 0)
		b := new(big.Int).Mod(new(big.Int).Abs(ip.V), big.NewInt(256))
		m.push(value{s: string([]byte{byte(b.Int64())}), isStr: true})
	default:
		m.unimplemented(ch)
	}
}

func (m *machine) setParam(ch byte, valid func(int64) bool, msg string, dst *int) {
	ns, ok := m.nums(1)
	if !ok {
		return
	}
	v := ns[0].ToLong()
	if !valid(v) || ns[0].IsNeg() {
		m.errorf("%s", msg)
		return
	}
	*dst = int(v)
}

// binary runs + - * / % ^ on the two top numbers.
func (m *machine) binary(ch byte) {
	ns, ok := m.nums(2)
	if !ok {
		return
	}
	a, b := ns[0], ns[1]
	var r bcnum.Num
	switch ch {
	case '+':
		r = bcnum.Add(a, b, 0)
	case '-':
		r = bcnum.Sub(a, b, 0)
	case '*':
		r = bcnum.Mul(a, b, m.scale)
	case '/', '%':
		if b.IsZero() {
			if ch == '/' {
				m.errorf("divide by zero")
			} else {
				m.errorf("remainder by zero")
			}
			m.restore(ns...)
			return
		}
		if ch == '/' {
			r, _ = bcnum.Div(a, b, m.scale)
		} else {
			r, _ = bcnum.Mod(a, b, m.scale)
		}
	case '^':
		if b.Scale > 0 {
			ip, _ := bcnum.Div(b, bcnum.One, 0)
			if bcnum.Cmp(ip, b) != 0 {
				m.errorf("warning: non-zero scale in exponent")
			}
		}
		if b.IsNeg() && a.IsZero() {
			m.errorf("divide by zero")
			m.restore(ns...)
			return
		}
		var msg string
		r, msg = bcnum.Raise(a, b, m.scale)
		if msg != "" {
			m.errorf("%s", msg)
			m.restore(ns...)
			return
		}
	}
	m.pushNum(r)
}

// unimplemented reports an unknown command as GNU dc does: the program
// name on standard error, the rest of the message on standard output.
func (m *machine) unimplemented(ch byte) {
	m.out.Flush()
	m.c.Stderr.Write([]byte(m.c.Name() + ": "))
	m.out.WriteString("'" + string(ch) + "' (0" + strconv.FormatInt(int64(ch), 8) + ") unimplemented\n")
}
