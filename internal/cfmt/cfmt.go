// Package cfmt formats numbers as C's printf does for one conversion
// specification, with the x86 long double (64-bit significand) that GNU
// printf, numfmt and seq use for floating-point conversions, so that
// "%.20f" of 0.1 shows the same digits as the GNU tools.
package cfmt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Prec is the significand size of an x87 long double.
const Prec = 64

// Spec is a parsed conversion: flags, width, precision and verb.
type Spec struct {
	Minus, Plus, Space, Hash, Zero bool
	Width                          int // -1 when not given
	Prec                           int // -1 when not given
	Verb                           byte
}

// Float is a long double value: a finite number, or an infinity or NaN.
type Float struct {
	F   *big.Float // finite values (nil for Inf and NaN)
	Inf bool
	NaN bool
	Neg bool // the sign of an infinity or NaN
}

// FromFloat64 converts a float64.
func FromFloat64(v float64) Float {
	switch {
	case math.IsNaN(v):
		return Float{NaN: true, Neg: math.Signbit(v)}
	case math.IsInf(v, 0):
		return Float{Inf: true, Neg: v < 0}
	}
	return Float{F: new(big.Float).SetPrec(Prec).SetFloat64(v)}
}

// pad applies width and the '-' and '0' flags to a number whose sign and
// prefix are given apart from its digits.
func pad(s Spec, sign, prefix, digits string, zeroOK bool) string {
	n := len(sign) + len(prefix) + len(digits)
	if s.Width <= n {
		return sign + prefix + digits
	}
	fill := s.Width - n
	switch {
	case s.Minus:
		return sign + prefix + digits + strings.Repeat(" ", fill)
	case s.Zero && zeroOK:
		return sign + prefix + strings.Repeat("0", fill) + digits
	}
	return strings.Repeat(" ", fill) + sign + prefix + digits
}

func (s Spec) signOf(neg bool) string {
	switch {
	case neg:
		return "-"
	case s.Plus:
		return "+"
	case s.Space:
		return " "
	}
	return ""
}

// Int formats a signed integer for d or i.
func Int(s Spec, v *big.Int) string {
	neg := v.Sign() < 0
	digits := new(big.Int).Abs(v).String()
	digits = intPrec(s, digits)
	return pad(s, s.signOf(neg), "", digits, s.Prec < 0)
}

func intPrec(s Spec, digits string) string {
	if s.Prec >= 0 {
		if s.Prec == 0 && digits == "0" {
			digits = ""
		}
		if len(digits) < s.Prec {
			digits = strings.Repeat("0", s.Prec-len(digits)) + digits
		}
	}
	return digits
}

// Uint formats an unsigned integer for o, u, x or X.
func Uint(s Spec, v uint64) string {
	var digits, prefix string
	switch s.Verb {
	case 'o':
		digits = strconv.FormatUint(v, 8)
	case 'x':
		digits = strconv.FormatUint(v, 16)
	case 'X':
		digits = strings.ToUpper(strconv.FormatUint(v, 16))
	default:
		digits = strconv.FormatUint(v, 10)
	}
	digits = intPrec(s, digits)
	if s.Hash {
		switch s.Verb {
		case 'o':
			if !strings.HasPrefix(digits, "0") {
				digits = "0" + digits
			}
		case 'x':
			if v != 0 {
				prefix = "0x"
			}
		case 'X':
			if v != 0 {
				prefix = "0X"
			}
		}
	}
	return pad(s, "", prefix, digits, s.Prec < 0)
}

// FloatString formats v for one of a A e E f F g G.
func FloatString(s Spec, v Float) string {
	upper := s.Verb == 'A' || s.Verb == 'E' || s.Verb == 'F' || s.Verb == 'G'
	if v.Inf || v.NaN {
		t := "inf"
		if v.NaN {
			t = "nan"
		}
		if upper {
			t = strings.ToUpper(t)
		}
		return pad(s, s.signOf(v.Neg), "", t, false)
	}
	neg := v.F.Signbit()
	a := new(big.Float).SetPrec(v.F.Prec()).Abs(v.F)
	var body string
	prefix := ""
	switch s.Verb {
	case 'f', 'F':
		p := s.Prec
		if p < 0 {
			p = 6
		}
		body = a.Text('f', p)
		if s.Hash && p == 0 {
			body += "."
		}
	case 'e', 'E':
		p := s.Prec
		if p < 0 {
			p = 6
		}
		body = expText(a, p, s.Hash)
	case 'g', 'G':
		body = gText(a, s.Prec, s.Hash)
	case 'a', 'A':
		prefix, body = hexText(a, s.Prec)
	}
	if upper {
		body = strings.ToUpper(body)
		prefix = strings.ToUpper(prefix)
	}
	return pad(s, s.signOf(neg), prefix, body, true)
}

// expText is %e of a non-negative value with p digits after the point.
func expText(a *big.Float, p int, hash bool) string {
	t := a.Text('e', p)
	if hash && p == 0 {
		if i := strings.IndexByte(t, 'e'); i >= 0 {
			t = t[:i] + "." + t[i:]
		}
	}
	return t
}

// gText is %g: %e or %f by the exponent, trailing zeros removed unless
// '#'.
func gText(a *big.Float, prec int, hash bool) string {
	p := prec
	if p < 0 {
		p = 6
	}
	if p == 0 {
		p = 1
	}
	e := a.Text('e', p-1)
	x := 0
	if i := strings.IndexByte(e, 'e'); i >= 0 {
		x, _ = strconv.Atoi(e[i+1:])
	}
	var t string
	if x < p && x >= -4 {
		t = a.Text('f', p-1-x)
	} else {
		t = e
	}
	if hash {
		if !strings.Contains(t, ".") {
			if i := strings.IndexByte(t, 'e'); i >= 0 {
				t = t[:i] + "." + t[i:]
			} else {
				t += "."
			}
		}
		return t
	}
	mant, exp := t, ""
	if i := strings.IndexByte(t, 'e'); i >= 0 {
		mant, exp = t[:i], t[i:]
	}
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	return mant + exp
}

// hexText is glibc's %a for an x86 long double: the first hex digit holds
// the top four bits of the 64-bit significand.
func hexText(a *big.Float, prec int) (string, string) {
	if a.Sign() == 0 {
		frac := ""
		if prec > 0 {
			frac = "." + strings.Repeat("0", prec)
		}
		return "0x", "0" + frac + "p+0"
	}
	m := new(big.Float).SetPrec(Prec)
	exp := a.MantExp(m) // a = m * 2^exp, 0.5 <= m < 1
	m.SetMantExp(m, Prec)
	mant, _ := m.Uint64() // 64-bit significand with the top bit set
	exp -= 4              // the first digit takes four bits: value = mant * 2^(exp-64) = 0xh.hhh * 2^(exp-4)
	lead := mant >> 60
	rest := mant << 4 // 60 bits of fraction in the top of the word
	digits := make([]byte, 15)
	for i := range digits {
		digits[i] = "0123456789abcdef"[rest>>60]
		rest <<= 4
	}
	frac := string(digits)
	if prec < 0 {
		frac = strings.TrimRight(frac, "0")
	} else if prec < 15 {
		// Round the significand to 4+4*prec bits, half to even.
		shift := uint(60 - 4*prec)
		q := mant >> shift
		r := mant & (1<<shift - 1)
		half := uint64(1) << (shift - 1)
		if r > half || r == half && q&1 == 1 {
			q++
		}
		lead = q >> (4 * uint(prec))
		fracBits := q & (1<<(4*uint(prec)) - 1)
		if lead >= 16 {
			lead, fracBits = 1, 0
			exp += 4
		}
		frac = ""
		if prec > 0 {
			f := strconv.FormatUint(fracBits, 16)
			frac = strings.Repeat("0", prec-len(f)) + f
		}
	} else {
		frac += strings.Repeat("0", prec-15)
	}
	body := strconv.FormatUint(lead, 16)
	if frac != "" {
		body += "." + frac
	}
	sign := "+"
	if exp < 0 {
		sign = "-"
		exp = -exp
	}
	return "0x", body + "p" + sign + strconv.Itoa(exp)
}

// ParseFloat reads a number as glibc's strtold does in the C locale:
// optional whitespace and sign, then a decimal or hexadecimal number,
// "inf", "infinity" or "nan". It returns the value and the number of bytes
// used (0 when there is no number), and whether the value overflowed.
func ParseFloat(s string) (v Float, n int, rangeErr bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	rest := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return Float{Inf: true, Neg: neg}, i + 8, false
	case strings.HasPrefix(rest, "inf"):
		return Float{Inf: true, Neg: neg}, i + 3, false
	case strings.HasPrefix(rest, "nan"):
		j := i + 3
		if j < len(s) && s[j] == '(' {
			k := j + 1
			for k < len(s) && (s[k] == '_' || s[k] >= '0' && s[k] <= '9' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z') {
				k++
			}
			if k < len(s) && s[k] == ')' {
				j = k + 1
			}
		}
		return Float{NaN: true, Neg: neg}, j, false
	}
	start := i
	hex := false
	if i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') {
		j := i + 2
		if j < len(s) && (isHex(s[j]) || s[j] == '.' && j+1 < len(s) && isHex(s[j+1])) {
			hex = true
			i = j
		}
	}
	digit := func(c byte) bool {
		if hex {
			return isHex(c)
		}
		return c >= '0' && c <= '9'
	}
	nd := 0
	for i < len(s) && digit(s[i]) {
		i++
		nd++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && digit(s[i]) {
			i++
			nd++
		}
	}
	if nd == 0 {
		return Float{}, 0, false
	}
	end := i
	expChar := byte('e')
	if hex {
		expChar = 'p'
	}
	if i < len(s) && (s[i]|0x20) == expChar {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			end = k
		}
	}
	text := s[start:end]
	if hex && !strings.ContainsAny(text, "pP") {
		text += "p0"
	}
	f, _, err := new(big.Float).SetPrec(Prec).SetMode(big.ToNearestEven).Parse(text, 0)
	if err != nil {
		return Float{}, 0, false
	}
	// The long double range: overflow gives infinity, underflow zero.
	if f.Sign() != 0 {
		e := f.MantExp(nil)
		if e > 16384 {
			return Float{Inf: true, Neg: neg}, end, true
		}
		if e < -16445 {
			f.SetInt64(0)
			rangeErr = true
		}
	}
	if neg {
		f.Neg(f)
	}
	return Float{F: f}, end, rangeErr
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
