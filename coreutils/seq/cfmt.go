package seq

import (
	"math/big"

	"github.com/bashbox/bashbox/internal/cfmt"
)

// ldPrec is the mantissa size of the x87 long double GNU seq computes in.
const ldPrec = 64

func newLD() *big.Float { return new(big.Float).SetPrec(ldPrec).SetMode(big.ToNearestEven) }

// parseLD parses s as glibc's strtold does (cfmt.ParseFloat), requiring
// the whole string to be a number. isNaN reports NaN; an overflow is not ok.
func parseLD(s string) (v *big.Float, isNaN bool, ok bool) {
	f, n, rangeErr := cfmt.ParseFloat(s)
	switch {
	case n == 0 || n != len(s):
		return nil, false, false
	case f.NaN:
		return nil, true, true
	case f.Inf && rangeErr:
		return nil, false, false // overflow: ERANGE
	case f.Inf:
		return newLD().SetInf(f.Neg), false, true
	}
	return f.F, false, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseSpec reads the conversion at the start of s (after the '%'): flags,
// width, precision and an optional 'L'. n is the index of the verb (len(s)
// when it is missing).
func parseSpec(s string) (sp cfmt.Spec, n int) {
	sp = cfmt.Spec{Width: -1, Prec: -1}
	i := 0
flags:
	for ; i < len(s); i++ {
		switch s[i] {
		case '-':
			sp.Minus = true
		case '+':
			sp.Plus = true
		case ' ':
			sp.Space = true
		case '#':
			sp.Hash = true
		case '0':
			sp.Zero = true
		case '\'':
		default:
			break flags
		}
	}
	sp.Width, i = number(s, i)
	if i < len(s) && s[i] == '.' {
		sp.Prec, i = number(s, i+1)
	}
	if i < len(s) && s[i] == 'L' {
		i++
	}
	if i < len(s) {
		sp.Verb = s[i]
	}
	return sp, i
}

// number reads the decimal digits at s[i:], capped so that a huge width
// or precision cannot ask for gigabytes of padding; end is past them.
func number(s string, i int) (v, end int) {
	for ; i < len(s) && isDigit(s[i]); i++ {
		v = min(v*10+int(s[i]-'0'), 1<<20)
	}
	return v, i
}

// format renders x as C's printf would with the conversion sp.
func format(sp cfmt.Spec, x *big.Float) string {
	v := cfmt.Float{F: x}
	if x.IsInf() {
		v = cfmt.Float{Inf: true, Neg: x.Signbit()}
	}
	return cfmt.FloatString(sp, v)
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
