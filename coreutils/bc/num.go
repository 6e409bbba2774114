package bc

import (
	"math/big"
	"strings"
)

// num is a bc number: the value v / 10^scale. Zero is never negative.
// Arithmetic follows GNU bc's number.c: results are truncated, never
// rounded, to the scales its operations define.
type num struct {
	v     *big.Int
	scale int
}

var (
	bigTen  = big.NewInt(10)
	pow10s  []*big.Int
	numZero = num{v: new(big.Int)}
	numOne  = num{v: big.NewInt(1)}
)

func init() {
	p := big.NewInt(1)
	for i := 0; i < 64; i++ {
		pow10s = append(pow10s, new(big.Int).Set(p))
		p = new(big.Int).Mul(p, bigTen)
	}
}

// pow10 is 10^n.
func pow10(n int) *big.Int {
	if n < len(pow10s) {
		return pow10s[n]
	}
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

func intNum(i int64) num { return num{v: big.NewInt(i)} }

func (a num) isZero() bool { return a.v.Sign() == 0 }
func (a num) isNeg() bool  { return a.v.Sign() < 0 }

// rescale returns a at scale s, truncating toward zero when s is smaller.
func (a num) rescale(s int) num {
	switch {
	case s == a.scale:
		return a
	case s > a.scale:
		return num{v: new(big.Int).Mul(a.v, pow10(s-a.scale)), scale: s}
	}
	return num{v: new(big.Int).Quo(a.v, pow10(a.scale-s)), scale: s}
}

// intLen is GNU's n_len: the number of integer digits, at least 1.
func (a num) intLen() int {
	ip := new(big.Int).Quo(a.v, pow10(a.scale))
	ip.Abs(ip)
	if ip.Sign() == 0 {
		return 1
	}
	return len(ip.String())
}

func add(a, b num, scaleMin int) num {
	s := max(scaleMin, a.scale, b.scale)
	x, y := a.rescale(s), b.rescale(s)
	return num{v: new(big.Int).Add(x.v, y.v), scale: s}
}

func sub(a, b num, scaleMin int) num {
	s := max(scaleMin, a.scale, b.scale)
	x, y := a.rescale(s), b.rescale(s)
	return num{v: new(big.Int).Sub(x.v, y.v), scale: s}
}

func mul(a, b num, scale int) num {
	full := a.scale + b.scale
	ps := min(full, max(scale, a.scale, b.scale))
	p := num{v: new(big.Int).Mul(a.v, b.v), scale: full}
	return p.rescale(ps)
}

// div is a/b truncated to scale digits; ok is false for division by zero.
func div(a, b num, scale int) (num, bool) {
	if b.isZero() {
		return num{}, false
	}
	// a/b = (a.v * 10^(b.scale+scale)) / (b.v * 10^a.scale)
	n := new(big.Int).Mul(a.v, pow10(b.scale+scale))
	d := new(big.Int).Mul(b.v, pow10(a.scale))
	return num{v: n.Quo(n, d), scale: scale}, true
}

// mod is bc's remainder: a - (a/b)*b with the quotient at scale.
func mod(a, b num, scale int) (num, bool) {
	if b.isZero() {
		return num{}, false
	}
	rscale := max(a.scale, b.scale+scale)
	q, _ := div(a, b, scale)
	t := mul(q, b, rscale)
	return sub(a, t, rscale), true
}

func cmp(a, b num) int {
	s := max(a.scale, b.scale)
	return a.rescale(s).v.Cmp(b.rescale(s).v)
}

// toLong is bc_num2long: the integer part, 0 when it overflows a long.
func (a num) toLong() int64 {
	ip := new(big.Int).Quo(a.v, pow10(a.scale))
	if !ip.IsInt64() {
		return 0
	}
	return ip.Int64()
}

// raise is a^b as bc computes it (b's fraction ignored with a warning by
// the caller).
func raise(a, b num, scale int) (num, string) {
	exp := b.toLong()
	if exp == 0 {
		ip := new(big.Int).Quo(b.v, pow10(b.scale))
		if ip.Sign() != 0 {
			return num{}, "exponent too large in raise"
		}
		return numOne, ""
	}
	neg := exp < 0
	if neg {
		exp = -exp
	}
	var rscale int
	if neg {
		rscale = scale
	} else {
		rscale = int(min(int64(a.scale)*exp, int64(max(scale, a.scale))))
	}
	if exp > 1<<31 && !a.isZero() && cmp(absNum(a), numOne) != 0 {
		return num{}, "exponent too large in raise"
	}
	// The power is exact before the final truncation.
	p := num{v: new(big.Int).Exp(a.v, big.NewInt(exp), nil), scale: a.scale * int(exp)}
	if a.scale == 0 {
		p.scale = 0
	}
	if neg {
		r, ok := div(numOne, p, rscale)
		if !ok {
			return num{v: new(big.Int)}, ""
		}
		return r, ""
	}
	if p.scale > rscale {
		p = p.rescale(rscale)
	}
	return p, ""
}

func absNum(a num) num { return num{v: new(big.Int).Abs(a.v), scale: a.scale} }

// nearZero is bc_is_near_zero: zero or one unit in the last place.
func nearZero(a num, scale int) bool {
	if scale > a.scale {
		scale = a.scale
	}
	t := a.rescale(scale)
	av := new(big.Int).Abs(t.v)
	return av.Cmp(big.NewInt(1)) <= 0
}

// sqrtNum is bc_sqrt: Newton's method with GNU's scales and stopping rule.
func sqrtNum(x num, scale int) (num, bool) {
	c := x.v.Sign()
	if c < 0 {
		return num{}, false
	}
	if c == 0 {
		return numZero, true
	}
	cmpOne := cmp(x, numOne)
	if cmpOne == 0 {
		return numOne, true
	}
	rscale := max(scale, x.scale)
	point5 := num{v: big.NewInt(5), scale: 1}
	var guess num
	var cscale int
	if cmpOne < 0 {
		guess = numOne
		cscale = x.scale
	} else {
		guess = num{v: new(big.Int).Set(pow10(x.intLen() / 2))}
		cscale = 3
	}
	for {
		guess1 := guess
		guess, _ = div(x, guess, cscale)
		guess = add(guess, guess1, 0)
		guess = mul(guess, point5, cscale)
		diff := sub(guess, guess1, cscale+1)
		if nearZero(diff, cscale) {
			if cscale < rscale+1 {
				cscale = min(cscale*3, rscale+1)
			} else {
				break
			}
		}
	}
	r, _ := div(guess, numOne, rscale)
	return r, true
}

// length is bc's length(): significant digits.
func length(a num) int {
	if a.intLen() == 1 && a.scale != 0 {
		ip := new(big.Int).Quo(a.v, pow10(a.scale))
		if ip.Sign() == 0 {
			return a.scale
		}
	}
	return a.intLen() + a.scale
}

// decimalDigits returns the integer and fraction digits of |a|.
func (a num) decimalDigits() (string, string) {
	s := new(big.Int).Abs(a.v).String()
	if len(s) <= a.scale {
		s = strings.Repeat("0", a.scale-len(s)+1) + s
	}
	return s[:len(s)-a.scale], s[len(s)-a.scale:]
}
