package bc

import (
	"math/big"

	"github.com/bashbox/bashbox/coreutils/internal/bcnum"
)

func boolNum(b bool) num {
	if b {
		return bcnum.One
	}
	return bcnum.Zero
}

// tooBig refuses an operation whose result would exceed maxDigits.
func (v *vm) tooBig(inst byte, a, b num) bool {
	da, db := int64(a.IntLen()+a.Scale), int64(b.IntLen()+b.Scale)
	var est int64
	switch inst {
	case '+', '-':
		est = max(da, db) + 1
	case '*':
		est = da + db
	case '/', '%':
		est = int64(a.IntLen()) + int64(b.Scale) + int64(v.scale) + int64(a.Scale)
	case '^':
		e := b.ToLong()
		if e < 0 {
			e = -e
			est = int64(v.scale) + da
		}
		if a.IsZero() || bcnum.Cmp(bcnum.Abs(a), bcnum.One) == 0 {
			est = max(est, da)
		} else if e > 0 {
			if e > maxDigits {
				est = maxDigits + 1
			} else {
				est = max(est, da*e)
			}
		}
	}
	if est > maxDigits {
		v.rtError("number too large (more than %d digits)", maxDigits)
		return true
	}
	return false
}

// pushB10 reads a base-10 constant from the code.
func (v *vm) pushB10() {
	code := v.prog.funcs[v.fn].code
	start := v.addr
	end := start
	for end < len(code) && code[end] != ':' {
		end++
	}
	digits := code[start:end]
	v.addr = end + 1
	intDigits, frac := digits, []byte(nil)
	for i, d := range digits {
		if d == '.' {
			intDigits, frac = digits[:i], digits[i+1:]
			break
		}
	}
	if len(intDigits) == 1 && len(frac) == 0 && intDigits[0] > 9 {
		v.push(bcnum.Int(int64(intDigits[0])))
		return
	}
	b := make([]byte, 0, len(intDigits)+len(frac)+1)
	for _, d := range intDigits {
		b = append(b, '0'+min(d, 9))
	}
	for _, d := range frac {
		b = append(b, '0'+min(d, 9))
	}
	if len(b) == 0 {
		b = append(b, '0')
	}
	n, _ := new(big.Int).SetString(string(b), 10)
	v.push(num{V: n, Scale: len(frac)})
}

// parseConst converts digits read by next (digit values, '.', ending at
// anything else) in base, as GNU's push_constant does.
func (v *vm) parseConst(next func() byte, base int) num {
	mult := bcnum.Int(int64(base))
	build := bcnum.Zero
	in := int(next())
	for in == '~' {
		in = int(next())
	}
	neg := false
	if in == '+' {
		in = int(next())
	} else if in == '-' {
		neg = true
		in = int(next())
	}
	if in < 36 {
		first := in
		in = int(next())
		if in < 36 && first >= base {
			first = base - 1
		}
		build = bcnum.Int(int64(first))
	}
	for in < 36 {
		if in >= base {
			in = base - 1
		}
		build = bcnum.Add(bcnum.Mul(build, mult, 0), bcnum.Int(int64(in)), 0)
		in = int(next())
	}
	if in == '.' {
		in = int(next())
		if in >= base {
			in = base - 1
		}
		result, divisor := bcnum.Zero, bcnum.One
		digits := 0
		for in < 36 {
			result = bcnum.Add(bcnum.Mul(result, mult, 0), bcnum.Int(int64(in)), 0)
			divisor = bcnum.Mul(divisor, mult, 0)
			digits++
			in = int(next())
			if in < 36 && in >= base {
				in = base - 1
			}
		}
		q, _ := bcnum.Div(result, divisor, digits)
		build = bcnum.Add(build, q, 0)
	}
	if neg {
		build = bcnum.Sub(bcnum.Zero, build, 0)
	}
	return build
}
