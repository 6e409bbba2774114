package bc

import (
	"context"
	"math/big"

	"github.com/bashbox/bashbox/coreutils/internal/bcnum"
)

// The -l library: s(x) c(x) a(x) l(x) e(x) j(n,x), computed in binary
// floating point with ample guard bits and truncated to the current
// scale, which is what GNU's library functions return in practice.

func (b *bc) loadMathLib() {
	def := func(name string, params []string, g func(v *vm, args []num) num) {
		f := func(v *vm, args []num) num {
			if v.scale > maxMathScale {
				v.rtError("scale too large for the math library (more than %d digits)", maxMathScale)
				return bcnum.Zero
			}
			for _, a := range args {
				if a.IntLen()+a.Scale > maxMathScale {
					v.rtError("argument too large for the math library")
					return bcnum.Zero
				}
			}
			return g(v, args)
		}
		fi := b.prog.lookupFunc(name)
		fn := b.prog.funcs[fi]
		fn.defined = true
		fn.native = f
		fn.params = nil
		for _, p := range params {
			fn.params = append([]param{{id: b.prog.lookupVar(p)}}, fn.params...)
		}
	}
	def("e", []string{"x"}, func(v *vm, a []num) num { return libExp(v.bc.ctx, a[0], v.scale) })
	def("l", []string{"x"}, func(v *vm, a []num) num { return libLog(v.bc.ctx, a[0], v.scale) })
	def("s", []string{"x"}, func(v *vm, a []num) num { return libSinCos(v.bc.ctx, a[0], v.scale, true) })
	def("c", []string{"x"}, func(v *vm, a []num) num { return libSinCos(v.bc.ctx, a[0], v.scale, false) })
	def("a", []string{"x"}, func(v *vm, a []num) num { return libAtan(v.bc.ctx, a[0], v.scale) })
	def("j", []string{"n", "x"}, func(v *vm, a []num) num { return libBessel(v.bc.ctx, a[0], a[1], v.scale) })
	b.vm.scale = 20
}

// maxMathScale bounds the precision of the library functions.
const maxMathScale = 200000

// precFor is the working precision for a result of about intDigits
// integer digits at scale.
func precFor(scale, intDigits int) uint {
	if intDigits < 0 {
		intDigits = 0
	}
	return uint(float64(scale+intDigits+20)*3.3220) + 96
}

func toFloat(x num, prec uint) *big.Float {
	f := new(big.Float).SetPrec(prec).SetInt(x.V)
	if x.Scale > 0 {
		d := new(big.Float).SetPrec(prec).SetInt(bcnum.Pow10(x.Scale))
		f.Quo(f, d)
	}
	return f
}

// fromFloat truncates f to scale digits.
func fromFloat(f *big.Float, scale int) num {
	m := new(big.Float).SetPrec(f.Prec()).SetInt(bcnum.Pow10(scale))
	m.Mul(m, f)
	i, _ := m.Int(nil)
	return num{V: i, Scale: scale}
}

func newF(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// expF is e^x for |x| moderate, by halving and Taylor series.
func expF(ctx context.Context, x *big.Float, prec uint) *big.Float {
	k := 0
	if e := x.MantExp(nil); e > -8 {
		k = e + 8
	}
	wp := prec + uint(k) + 16
	r := newF(wp).Set(x)
	r.SetMantExp(r, -k)
	sum := newF(wp).SetInt64(1)
	term := newF(wp).SetInt64(1)
	eps := newF(wp).SetMantExp(big.NewFloat(1), -int(wp))
	for n := int64(1); ; n++ {
		term.Mul(term, r)
		term.Quo(term, newF(wp).SetInt64(n))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 || ctx.Err() != nil {
			break
		}
	}
	for i := 0; i < k; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetPrec(prec)
}

func libExp(ctx context.Context, x num, scale int) num {
	if x.IsZero() {
		return num{V: new(big.Int).Set(bcnum.Pow10(scale)), Scale: scale}
	}
	// Integer digits of the result: about x*log10(e).
	xf, _ := toFloat(x, 64).Float64()
	digits := int(xf*0.4343) + 2
	prec := precFor(scale, digits) + uint(absInt(digits))*4
	return fromFloat(expF(ctx, toFloat(x, prec), prec), scale)
}

func absInt(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// atanhSeries is atanh(z) = z + z^3/3 + z^5/5 ... for small |z|.
func atanhSeries(ctx context.Context, z *big.Float, prec uint) *big.Float {
	return oddSeries(ctx, z, prec, false)
}

// oddSeries sums z + s z^3/3 + z^5/5 + s z^7/7 ..., s being -1 when
// alternate (atan) and 1 otherwise (atanh), until a term is below the
// precision or ctx ends.
func oddSeries(ctx context.Context, z *big.Float, prec uint, alternate bool) *big.Float {
	z2 := newF(prec).Mul(z, z)
	term := newF(prec).Set(z)
	sum := newF(prec).Set(z)
	eps := newF(prec).SetMantExp(big.NewFloat(1), -int(prec))
	for n := int64(3); ; n += 2 {
		term.Mul(term, z2)
		if alternate {
			term.Neg(term)
		}
		t := newF(prec).Quo(term, newF(prec).SetInt64(n))
		sum.Add(sum, t)
		if new(big.Float).Abs(t).Cmp(eps) < 0 || ctx.Err() != nil {
			return sum
		}
	}
}

func ln2(ctx context.Context, prec uint) *big.Float {
	third := newF(prec).Quo(newF(prec).SetInt64(1), newF(prec).SetInt64(3))
	r := atanhSeries(ctx, third, prec)
	return r.Mul(r, newF(prec).SetInt64(2))
}

func logF(ctx context.Context, x *big.Float, prec uint) *big.Float {
	m := newF(prec)
	e := x.MantExp(m) // x = m * 2^e, 0.5 <= m < 1
	// ln m = 2 atanh((m-1)/(m+1))
	one := newF(prec).SetInt64(1)
	z := newF(prec).Quo(newF(prec).Sub(m, one), newF(prec).Add(m, one))
	r := atanhSeries(ctx, z, prec)
	r.Mul(r, newF(prec).SetInt64(2))
	if e != 0 {
		l2 := ln2(ctx, prec)
		r.Add(r, l2.Mul(l2, newF(prec).SetInt64(int64(e))))
	}
	return r
}

func libLog(ctx context.Context, x num, scale int) num {
	if x.V.Sign() <= 0 {
		// GNU's l(x) returns 1-10^scale for x <= 0.
		v := new(big.Int).Sub(big.NewInt(1), bcnum.Pow10(scale))
		return num{V: v.Mul(v, bcnum.Pow10(scale)), Scale: scale}
	}
	prec := precFor(scale, 12) + uint(x.IntLen()+x.Scale)*4
	return fromFloat(logF(ctx, toFloat(x, prec), prec), scale)
}

// atanSmall is the Taylor series of atan for |x| <= 1/2.
func atanSmall(ctx context.Context, x *big.Float, prec uint) *big.Float {
	return oddSeries(ctx, x, prec, true)
}

// piF is pi by Machin's formula.
func piF(ctx context.Context, prec uint) *big.Float {
	inv := func(n int64) *big.Float { return newF(prec).Quo(newF(prec).SetInt64(1), newF(prec).SetInt64(n)) }
	a := atanSmall(ctx, inv(5), prec)
	a.Mul(a, newF(prec).SetInt64(16))
	b := atanSmall(ctx, inv(239), prec)
	b.Mul(b, newF(prec).SetInt64(4))
	return a.Sub(a, b)
}

// atanF is atan for any x.
func atanF(ctx context.Context, x *big.Float, prec uint) *big.Float {
	neg := x.Sign() < 0
	y := newF(prec).Abs(x)
	one := newF(prec).SetInt64(1)
	inverted := false
	if y.Cmp(one) > 0 {
		y.Quo(one, y)
		inverted = true
	}
	// Halve the angle until small: atan(y) = 2 atan(y / (1 + sqrt(1+y^2))).
	doublings := 0
	lim := newF(prec).SetFloat64(0.125)
	for y.Cmp(lim) > 0 {
		s := newF(prec).Mul(y, y)
		s.Add(s, one)
		s.Sqrt(s)
		s.Add(s, one)
		y.Quo(y, s)
		doublings++
	}
	r := atanSmall(ctx, y, prec)
	r.SetMantExp(r, doublings)
	if inverted {
		h := piF(ctx, prec)
		h.SetMantExp(h, -1)
		r.Sub(h, r)
	}
	if neg {
		r.Neg(r)
	}
	return r
}

func libAtan(ctx context.Context, x num, scale int) num {
	prec := precFor(scale, 2) + uint(x.IntLen())*4
	return fromFloat(atanF(ctx, toFloat(x, prec), prec), scale)
}

func libSinCos(ctx context.Context, x num, scale int, sine bool) num {
	extra := uint(x.IntLen()) * 4
	prec := precFor(scale, 2) + extra
	xf := toFloat(x, prec+extra)
	pi := piF(ctx, prec+extra)
	twoPi := newF(prec+extra).Mul(pi, newF(prec+extra).SetInt64(2))
	// r = x - 2*pi*round(x/(2*pi))
	q := newF(prec+extra).Quo(xf, twoPi)
	half := newF(prec + extra).SetFloat64(0.5)
	if q.Sign() < 0 {
		q.Sub(q, half)
	} else {
		q.Add(q, half)
	}
	qi, _ := q.Int(nil)
	r := newF(prec+extra).Mul(twoPi, newF(prec+extra).SetInt(qi))
	r.Sub(xf, r)
	r.SetPrec(prec)
	x2 := newF(prec).Mul(r, r)
	var term, sum *big.Float
	var n int64
	if sine {
		term, n = newF(prec).Set(r), 1
	} else {
		term, n = newF(prec).SetInt64(1), 0
	}
	sum = newF(prec).Set(term)
	eps := newF(prec).SetMantExp(big.NewFloat(1), -int(prec))
	for {
		term.Mul(term, x2)
		term.Quo(term, newF(prec).SetInt64((n+1)*(n+2)))
		term.Neg(term)
		n += 2
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 || ctx.Err() != nil {
			break
		}
	}
	return fromFloat(sum, scale)
}

func libBessel(ctx context.Context, nArg, x num, scale int) num {
	n := new(big.Int).Quo(nArg.V, bcnum.Pow10(nArg.Scale)).Int64()
	neg := false
	if n < 0 {
		n = -n
		neg = n%2 == 1
	}
	xf64, _ := toFloat(x, 64).Float64()
	guard := uint(absFloat(xf64)*1.45) + uint(x.IntLen())*4
	prec := precFor(scale, 2) + guard
	xf := toFloat(x, prec)
	half := newF(prec).Quo(xf, newF(prec).SetInt64(2))
	// term0 = (x/2)^n / n!
	term := newF(prec).SetInt64(1)
	for i := int64(1); i <= n; i++ {
		term.Mul(term, half)
		term.Quo(term, newF(prec).SetInt64(i))
	}
	sum := newF(prec).Set(term)
	h2 := newF(prec).Mul(half, half)
	eps := newF(prec).SetMantExp(big.NewFloat(1), -int(prec))
	for k := int64(1); ; k++ {
		term.Mul(term, h2)
		term.Quo(term, newF(prec).SetInt64(k*(k+n)))
		term.Neg(term)
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 && float64(k) > absFloat(xf64) {
			break
		}
		if term.Sign() == 0 || ctx.Err() != nil {
			break
		}
	}
	if neg {
		sum.Neg(sum)
	}
	return fromFloat(sum, scale)
}

func absFloat(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
