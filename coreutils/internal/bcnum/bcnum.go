// Package bcnum is the arbitrary-precision decimal arithmetic of GNU bc's
// number.c, shared by bc and dc: a value v / 10^scale, truncated (never
// rounded) to the scales each operation defines.
package bcnum

import (
	"math/big"
	"strconv"
	"strings"
)

// Num is a bc number: the value v / 10^scale. Zero is never negative.
// Arithmetic follows GNU bc's number.c: results are truncated, never
// rounded, to the scales its operations define.
type Num struct {
	V     *big.Int
	Scale int
}

var (
	bigTen = big.NewInt(10)
	pow10s []*big.Int
	Zero   = Num{V: new(big.Int)}
	One    = Num{V: big.NewInt(1)}
)

func init() {
	p := big.NewInt(1)
	for i := 0; i < 64; i++ {
		pow10s = append(pow10s, new(big.Int).Set(p))
		p = new(big.Int).Mul(p, bigTen)
	}
}

// Pow10 is 10^n.
func Pow10(n int) *big.Int {
	if n < len(pow10s) {
		return pow10s[n]
	}
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

func Int(i int64) Num { return Num{V: big.NewInt(i)} }

func (a Num) IsZero() bool { return a.V.Sign() == 0 }
func (a Num) IsNeg() bool  { return a.V.Sign() < 0 }

// Rescale returns a at scale s, truncating toward zero when s is smaller.
func (a Num) Rescale(s int) Num {
	switch {
	case s == a.Scale:
		return a
	case s > a.Scale:
		return Num{V: new(big.Int).Mul(a.V, Pow10(s-a.Scale)), Scale: s}
	}
	return Num{V: new(big.Int).Quo(a.V, Pow10(a.Scale-s)), Scale: s}
}

// IntLen is GNU's n_len: the number of integer digits, at least 1.
func (a Num) IntLen() int {
	ip := new(big.Int).Quo(a.V, Pow10(a.Scale))
	ip.Abs(ip)
	if ip.Sign() == 0 {
		return 1
	}
	return len(ip.String())
}

func Add(a, b Num, scaleMin int) Num {
	s := max(scaleMin, a.Scale, b.Scale)
	x, y := a.Rescale(s), b.Rescale(s)
	return Num{V: new(big.Int).Add(x.V, y.V), Scale: s}
}

func Sub(a, b Num, scaleMin int) Num {
	s := max(scaleMin, a.Scale, b.Scale)
	x, y := a.Rescale(s), b.Rescale(s)
	return Num{V: new(big.Int).Sub(x.V, y.V), Scale: s}
}

func Mul(a, b Num, scale int) Num {
	full := a.Scale + b.Scale
	ps := min(full, max(scale, a.Scale, b.Scale))
	p := Num{V: new(big.Int).Mul(a.V, b.V), Scale: full}
	return p.Rescale(ps)
}

// Div is a/b truncated to scale digits; ok is false for division by zero.
func Div(a, b Num, scale int) (Num, bool) {
	if b.IsZero() {
		return Num{}, false
	}
	// a/b = (a.V * 10^(b.Scale+scale)) / (b.V * 10^a.Scale)
	n := new(big.Int).Mul(a.V, Pow10(b.Scale+scale))
	d := new(big.Int).Mul(b.V, Pow10(a.Scale))
	return Num{V: n.Quo(n, d), Scale: scale}, true
}

// Mod is bc's remainder: a - (a/b)*b with the quotient at scale.
func Mod(a, b Num, scale int) (Num, bool) {
	if b.IsZero() {
		return Num{}, false
	}
	rscale := max(a.Scale, b.Scale+scale)
	q, _ := Div(a, b, scale)
	t := Mul(q, b, rscale)
	return Sub(a, t, rscale), true
}

func Cmp(a, b Num) int {
	s := max(a.Scale, b.Scale)
	return a.Rescale(s).V.Cmp(b.Rescale(s).V)
}

// ToLong is bc_num2long: the integer part, 0 when it overflows a long.
func (a Num) ToLong() int64 {
	ip := new(big.Int).Quo(a.V, Pow10(a.Scale))
	if !ip.IsInt64() {
		return 0
	}
	return ip.Int64()
}

// Raise is a^b as bc computes it (b's fraction ignored with a warning by
// the caller).
func Raise(a, b Num, scale int) (Num, string) {
	exp := b.ToLong()
	if exp == 0 {
		ip := new(big.Int).Quo(b.V, Pow10(b.Scale))
		if ip.Sign() != 0 {
			return Num{}, "exponent too large in Raise"
		}
		return One, ""
	}
	neg := exp < 0
	if neg {
		exp = -exp
	}
	var rscale int
	if neg {
		rscale = scale
	} else {
		rscale = int(min(int64(a.Scale)*exp, int64(max(scale, a.Scale))))
	}
	if exp > 1<<31 && !a.IsZero() && Cmp(Abs(a), One) != 0 {
		return Num{}, "exponent too large in Raise"
	}
	// The power is exact before the final truncation.
	p := Num{V: new(big.Int).Exp(a.V, big.NewInt(exp), nil), Scale: a.Scale * int(exp)}
	if a.Scale == 0 {
		p.Scale = 0
	}
	if neg {
		r, ok := Div(One, p, rscale)
		if !ok {
			return Num{V: new(big.Int)}, ""
		}
		return r, ""
	}
	if p.Scale > rscale {
		p = p.Rescale(rscale)
	}
	return p, ""
}

func Abs(a Num) Num { return Num{V: new(big.Int).Abs(a.V), Scale: a.Scale} }

// NearZero is bc_is_near_zero: zero or one unit in the last place.
func NearZero(a Num, scale int) bool {
	if scale > a.Scale {
		scale = a.Scale
	}
	t := a.Rescale(scale)
	av := new(big.Int).Abs(t.V)
	return av.Cmp(big.NewInt(1)) <= 0
}

// Sqrt is bc_sqrt: Newton's method with GNU's scales and stopping rule.
func Sqrt(x Num, scale int) (Num, bool) {
	c := x.V.Sign()
	if c < 0 {
		return Num{}, false
	}
	if c == 0 {
		return Zero, true
	}
	cmpOne := Cmp(x, One)
	if cmpOne == 0 {
		return One, true
	}
	rscale := max(scale, x.Scale)
	point5 := Num{V: big.NewInt(5), Scale: 1}
	var guess Num
	var cscale int
	if cmpOne < 0 {
		guess = One
		cscale = x.Scale
	} else {
		guess = Num{V: new(big.Int).Set(Pow10(x.IntLen() / 2))}
		cscale = 3
	}
	for {
		guess1 := guess
		guess, _ = Div(x, guess, cscale)
		guess = Add(guess, guess1, 0)
		guess = Mul(guess, point5, cscale)
		diff := Sub(guess, guess1, cscale+1)
		if NearZero(diff, cscale) {
			if cscale < rscale+1 {
				cscale = min(cscale*3, rscale+1)
			} else {
				break
			}
		}
	}
	r, _ := Div(guess, One, rscale)
	return r, true
}

// Length is bc's Length(): significant digits.
func Length(a Num) int {
	if a.IntLen() == 1 && a.Scale != 0 {
		ip := new(big.Int).Quo(a.V, Pow10(a.Scale))
		if ip.Sign() == 0 {
			return a.Scale
		}
	}
	return a.IntLen() + a.Scale
}

// DecimalDigits returns the integer and fraction digits of |a|.
func (a Num) DecimalDigits() (string, string) {
	s := new(big.Int).Abs(a.V).String()
	if len(s) <= a.Scale {
		s = strings.Repeat("0", a.Scale-len(s)+1) + s
	}
	return s[:len(s)-a.Scale], s[len(s)-a.Scale:]
}

const refStr = "0123456789ABCDEF"

// Format renders n in base obase as bc's out_num and dc print it, before
// any line splitting: digits above base 16 are zero-padded decimal
// groups, each after a space. stop, when it returns true, cuts a long
// conversion short.
func Format(n Num, obase int, stop func() bool) string {
	var b strings.Builder
	if n.IsNeg() {
		b.WriteByte('-')
	}
	if n.IsZero() {
		b.WriteByte('0')
		return b.String()
	}
	if obase == 10 {
		ip, fp := n.DecimalDigits()
		if ip != "0" {
			b.WriteString(ip)
		}
		if n.Scale > 0 {
			b.WriteByte('.')
			b.WriteString(fp)
		}
		return b.String()
	}
	width := len(strconv.Itoa(obase - 1))
	digit := func(d int64, space bool) {
		if obase <= 16 {
			b.WriteByte(refStr[d])
			return
		}
		if space {
			b.WriteByte(' ')
		}
		s := strconv.FormatInt(d, 10)
		b.WriteString(strings.Repeat("0", max(width-len(s), 0)))
		b.WriteString(s)
	}
	a := Abs(n)
	intPart, _ := Div(a, One, 0)
	frac := Sub(a, intPart, 0)
	base := Int(int64(obase))
	var digits []int64
	for !intPart.IsZero() {
		if stop() {
			return b.String()
		}
		d, _ := Mod(intPart, base, 0)
		digits = append(digits, d.ToLong())
		intPart, _ = Div(intPart, base, 0)
	}
	for i := len(digits) - 1; i >= 0; i-- {
		digit(digits[i], true)
	}
	if n.Scale > 0 {
		b.WriteByte('.')
		preSpace := false
		t := One
		for t.IntLen() <= n.Scale {
			if stop() {
				break
			}
			frac = Mul(frac, base, n.Scale)
			fd := frac.ToLong()
			frac = Sub(frac, Int(fd), 0)
			digit(fd, preSpace)
			preSpace = true
			t = Mul(t, base, 0)
		}
	}
	return b.String()
}
