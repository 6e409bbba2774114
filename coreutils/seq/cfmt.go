package seq

import (
	"math/big"
	"strings"
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
	neg := x.Signbit()
	ax := new(big.Float).SetPrec(x.Prec()).Abs(x)
	upper := sp.verb >= 'A' && sp.verb <= 'Z'
	var body string
	numeric := true
	if ax.IsInf() {
		body = "inf"
		numeric = false
	} else {
		switch sp.verb | 0x20 {
		case 'f':
			prec := sp.prec
			if prec < 0 {
				prec = 6
			}
			body = ax.Text('f', prec)
			if sp.alt && prec == 0 {
				body += "."
			}
		case 'e':
			prec := sp.prec
			if prec < 0 {
				prec = 6
			}
			body = ax.Text('e', prec)
			if sp.alt && prec == 0 {
				body = strings.Replace(body, "e", ".e", 1)
			}
		case 'g':
			body = formatG(ax, sp.prec, sp.alt)
		case 'a':
			body = formatA(ax, sp.prec, sp.alt)
		}
	}
	if upper {
		body = strings.ToUpper(body)
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case sp.plus:
		sign = "+"
	case sp.space:
		sign = " "
	}
	n := len(sign) + len(body)
	if n >= sp.width {
		return sign + body
	}
	pad := sp.width - n
	switch {
	case sp.minus:
		return sign + body + strings.Repeat(" ", pad)
	case sp.zero && numeric:
		prefix := ""
		if sp.verb|0x20 == 'a' && len(body) > 2 {
			prefix, body = body[:2], body[2:]
		}
		return sign + prefix + strings.Repeat("0", pad) + body
	default:
		return strings.Repeat(" ", pad) + sign + body
	}
}

// formatG is %g: %e or %f by the exponent, trailing zeros removed.
func formatG(ax *big.Float, prec int, alt bool) string {
	p := prec
	if p < 0 {
		p = 6
	}
	if p == 0 {
		p = 1
	}
	e := ax.Text('e', p-1)
	exp := 0
	if i := strings.IndexByte(e, 'e'); i >= 0 {
		exp = atoiSigned(e[i+1:])
	}
	var s string
	if exp < -4 || exp >= p {
		s = e
		if !alt {
			i := strings.IndexByte(s, 'e')
			s = trimZeros(s[:i]) + s[i:]
		}
	} else {
		s = ax.Text('f', p-1-exp)
		if !alt {
			s = trimZeros(s)
		}
	}
	if alt && !strings.Contains(s, ".") {
		if i := strings.IndexByte(s, 'e'); i >= 0 {
			s = s[:i] + "." + s[i:]
		} else {
			s += "."
		}
	}
	return s
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
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

// formatA is glibc's %La: the leading hex digit holds the top four bits
// of the 64-bit mantissa.
func formatA(ax *big.Float, prec int, alt bool) string {
	if ax.Sign() == 0 {
		s := "0x0"
		if prec > 0 {
			s += "." + strings.Repeat("0", prec)
		} else if alt {
			s += "."
		}
		return s + "p+0"
	}
	mant := new(big.Float)
	exp := ax.MantExp(mant) // ax = mant * 2^exp, mant in [0.5, 1)
	m, _ := new(big.Float).SetMantExp(mant, 64).Int(nil)
	exp -= 4
	const hexdigits = "0123456789abcdef"
	digits := make([]byte, 16)
	mm := new(big.Int).Set(m)
	for i := 15; i >= 0; i-- {
		digits[i] = hexdigits[new(big.Int).And(mm, big.NewInt(15)).Int64()]
		mm.Rsh(mm, 4)
	}
	lead := digits[0]
	frac := strings.TrimRight(string(digits[1:]), "0")
	if prec >= 0 && prec < len(frac) {
		// Round the 64-bit mantissa to 4+4*prec bits, half to even.
		shift := uint(60 - 4*prec)
		q := new(big.Int).Rsh(m, shift)
		rem := new(big.Int).Sub(m, new(big.Int).Lsh(q, shift))
		half := new(big.Int).Lsh(big.NewInt(1), shift-1)
		if c := rem.Cmp(half); c > 0 || (c == 0 && q.Bit(0) == 1) {
			q.Add(q, big.NewInt(1))
		}
		if q.BitLen() > 4+4*prec {
			q.Rsh(q, 4)
			exp += 4
		}
		hs := q.Text(16)
		lead = hs[0]
		frac = hs[1:]
	} else if prec > len(frac) {
		frac += strings.Repeat("0", prec-len(frac))
	}
	s := "0x" + string(lead)
	if frac != "" || alt {
		s += "." + frac
	}
	if exp >= 0 {
		return s + "p+" + itoa(exp)
	}
	return s + "p-" + itoa(-exp)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
