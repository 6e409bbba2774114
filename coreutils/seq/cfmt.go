package seq

import (
	"math/big"
	"strings"

	"github.com/bashbox/bashbox/internal/cfmt"
)

// ldPrec is the mantissa size of the x87 long double GNU seq computes in.
const ldPrec = 64

func newLD() *big.Float { return new(big.Float).SetPrec(ldPrec).SetMode(big.ToNearestEven) }

// ldMax is the largest finite long double.
var ldMax = func() *big.Float {
	f, _, _ := newLD().Parse("0x1.fffffffffffffffep16383", 0)
	return f
}()

// parseLD parses s as glibc's strtold does, requiring the whole string to
// be a number: leading white space, a sign, decimal or hexadecimal
// mantissa and exponent, "inf", "infinity" and "nan". isNaN reports NaN.
func parseLD(s string) (v *big.Float, isNaN bool, ok bool) {
	p := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if p != "" && (p[0] == '+' || p[0] == '-') {
		neg = p[0] == '-'
		p = p[1:]
	}
	lower := strings.ToLower(p)
	switch {
	case lower == "inf" || lower == "infinity":
		return newLD().SetInf(neg), false, true
	case lower == "nan" || (strings.HasPrefix(lower, "nan(") && strings.HasSuffix(lower, ")") && isNanChars(lower[4:len(lower)-1])):
		return nil, true, true
	}
	var norm strings.Builder
	if neg {
		norm.WriteByte('-')
	}
	if strings.HasPrefix(lower, "0x") {
		q := lower[2:]
		i, digits := 0, 0
		for i < len(q) && isHex(q[i]) {
			i++
			digits++
		}
		mant := q[:i]
		if i < len(q) && q[i] == '.' {
			i++
			for i < len(q) && isHex(q[i]) {
				i++
				digits++
			}
			mant = q[:i]
		}
		if digits == 0 {
			return nil, false, false
		}
		exp := "p0"
		if i < len(q) && q[i] == 'p' {
			j := i + 1
			if j < len(q) && (q[j] == '+' || q[j] == '-') {
				j++
			}
			k := j
			for k < len(q) && isDigit(q[k]) {
				k++
			}
			if k == j {
				return nil, false, false
			}
			exp = q[i:k]
			i = k
		}
		if i != len(q) {
			return nil, false, false
		}
		norm.WriteString("0x")
		if strings.HasPrefix(mant, ".") {
			norm.WriteByte('0')
		}
		norm.WriteString(strings.TrimSuffix(mant, "."))
		norm.WriteString(exp)
	} else {
		q := p
		i, digits := 0, 0
		for i < len(q) && isDigit(q[i]) {
			i++
			digits++
		}
		if i < len(q) && q[i] == '.' {
			i++
			for i < len(q) && isDigit(q[i]) {
				i++
				digits++
			}
		}
		if digits == 0 {
			return nil, false, false
		}
		mantEnd := i
		if i < len(q) && (q[i] == 'e' || q[i] == 'E') {
			j := i + 1
			if j < len(q) && (q[j] == '+' || q[j] == '-') {
				j++
			}
			k := j
			for k < len(q) && isDigit(q[k]) {
				k++
			}
			if k > j {
				i = k
			}
		}
		if i != len(q) {
			return nil, false, false
		}
		m := q[:mantEnd]
		if strings.HasPrefix(m, ".") {
			norm.WriteByte('0')
		}
		norm.WriteString(strings.TrimSuffix(m, "."))
		norm.WriteString(q[mantEnd:i])
	}
	f, _, err := newLD().Parse(norm.String(), 0)
	if err != nil {
		return nil, false, false
	}
	if f.IsInf() || new(big.Float).Abs(f).Cmp(ldMax) > 0 {
		return nil, false, false // overflow: ERANGE
	}
	return f, false, true
}

func isNanChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isDigit(c) || (c >= 'a' && c <= 'z') || c == '_') {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || (c >= 'a' && c <= 'f') }

// spec is one printf conversion for a floating-point value.
type spec struct {
	minus, plus, space, alt, zero bool
	width                         int
	prec                          int // -1 when absent
	verb                          byte
}

// parseSpec reads the conversion at the start of s (after the '%').
func parseSpec(s string) spec {
	sp := spec{prec: -1}
	i := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '-':
			sp.minus = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.alt = true
		case '0':
			sp.zero = true
		case '\'':
		default:
			goto width
		}
	}
width:
	for i < len(s) && isDigit(s[i]) {
		sp.width = sp.width*10 + int(s[i]-'0')
		if sp.width > 1<<20 {
			sp.width = 1 << 20
		}
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		sp.prec = 0
		for i < len(s) && isDigit(s[i]) {
			sp.prec = sp.prec*10 + int(s[i]-'0')
			if sp.prec > 1<<20 {
				sp.prec = 1 << 20
			}
			i++
		}
	}
	if i < len(s) && s[i] == 'L' {
		i++
	}
	if i < len(s) {
		sp.verb = s[i]
	}
	return sp
}

// format renders x as C's printf would with this conversion.
func (sp spec) format(x *big.Float) string {
	cs := cfmt.Spec{Minus: sp.minus, Plus: sp.plus, Space: sp.space, Hash: sp.alt, Zero: sp.zero,
		Width: sp.width, Prec: sp.prec, Verb: sp.verb}
	v := cfmt.Float{F: x}
	if x.IsInf() {
		v = cfmt.Float{Inf: true, Neg: x.Signbit()}
	}
	return cfmt.FloatString(cs, v)
}

func atoiSigned(s string) int {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	if neg {
		return -n
	}
	return n
}
