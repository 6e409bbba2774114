package numfmt

import (
	"math/big"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/internal/cfmt"
)

// ld is long double arithmetic: every result rounded to 64 bits.
func ld() *big.Float { return new(big.Float).SetPrec(cfmt.Prec).SetMode(big.ToNearestEven) }

func ldInt(v int64) *big.Float { return ld().SetInt64(v) }

func pow(base int64, x int) *big.Float {
	r := ldInt(1)
	b := ldInt(base)
	for i := 0; i < x; i++ {
		r.Mul(r, b)
	}
	return r
}

// convert parses and reformats one field.
func (n *numfmt) convert(text string, field uint64) (string, bool) {
	if n.hasSuffix && len(text) > len(n.suffix) && strings.HasSuffix(text, n.suffix) {
		text = text[:len(text)-len(n.suffix)]
	}
	p := strings.TrimLeft(text, " \t")
	if n.autoPad {
		if len(p) < len(text) || field > 1 {
			n.padding = len(text)
		} else {
			n.padding = 0
		}
	}
	val, prec, e := n.parseHuman(p)
	if e != sseOK && e != ssePrecisionLoss {
		return "", false
	}
	if e == ssePrecisionLoss && n.debug {
		n.c.Errorf("large input value %s: possible precision loss", utilcmd.Q(n.c, p))
	}
	if n.fromUnit != 1 || n.toUnit != 1 {
		val.Mul(val, ld().SetUint64(n.fromUnit))
		val.Quo(val, ld().SetUint64(n.toUnit))
	}
	return n.padded(val, prec)
}

// parseInt reads the digits of a number: value, negative, bytes used.
func parseInt(s string, val *big.Float) (neg bool, used int, e sse) {
	i := 0
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	found := false
	digits := 0
	val.SetInt64(0)
	ten := ldInt(10)
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := int64(s[i] - '0')
		found = true
		if val.Sign() != 0 || d != 0 {
			digits++
		}
		if digits > maxUnscaledDigits {
			e = ssePrecisionLoss
		}
		if digits > maxAcceptableDigits {
			return neg, i, sseOverflow
		}
		val.Mul(val, ten)
		val.Add(val, ldInt(d))
		i++
	}
	if !found && !(i < len(s) && s[i] == '.') {
		return neg, i, sseInvalidNumber
	}
	if neg {
		val.Neg(val)
	}
	return neg, i, e
}

// parseHuman reads NNN[.NNN][suffix] per --from.
func (n *numfmt) parseHuman(s string) (*big.Float, int, sse) {
	val := ld()
	neg, i, e := parseInt(s, val)
	prec := 0
	if e == sseOK || e == ssePrecisionLoss {
		if i < len(s) && s[i] == '.' {
			i++
			frac := ld()
			negFrac, used, e2 := parseInt(s[i:], frac)
			switch {
			case e2 != sseOK && e2 != ssePrecisionLoss:
				e = e2
			case negFrac:
				e = sseInvalidNumber
			default:
				if e2 == ssePrecisionLoss {
					e = e2
				}
				frac.Quo(frac, pow(10, used))
				if neg {
					val.Sub(val, frac)
				} else {
					val.Add(val, frac)
				}
				prec = used
				i += used
			}
		}
	}
	if e == sseOK || e == ssePrecisionLoss {
		power := 0
		base := int64(1000)
		if n.from == scaleIEC || n.from == scaleIECI {
			base = 1024
		}
		if i < len(s) {
			for i < len(s) && isBlank(s[i]) {
				i++
			}
			switch {
			case i >= len(s) || strings.IndexByte("KMGTPEZY", s[i]) < 0:
				e = sseInvalidSuffix
			case n.from == scaleNone:
				e = sseForbiddenSuffix
			default:
				power = strings.IndexByte("KMGTPEZY", s[i]) + 1
				i++
				if n.from == scaleAuto && i < len(s) && s[i] == 'i' {
					base = 1024
					i++
				}
				prec = 0
			}
		}
		if e == sseOK || e == ssePrecisionLoss {
			if n.from == scaleIECI {
				if i < len(s) && s[i] == 'i' {
					i++
				} else {
					e = sseMissingI
				}
			}
		}
		if e == sseOK || e == ssePrecisionLoss {
			if power > 0 {
				val.Mul(val, pow(base, power))
			}
			if i < len(s) {
				n.convError("invalid suffix in input %s: %s", utilcmd.Q(n.c, s), utilcmd.Q(n.c, s[i:]))
				return val, prec, sseInvalidSuffix
			}
			return val, prec, e
		}
	}
	msg := map[sse]string{
		sseOverflow:        "value too large to be converted: %s",
		sseInvalidNumber:   "invalid number: %s",
		sseForbiddenSuffix: "rejecting suffix in input: %s (consider using --from)",
		sseInvalidSuffix:   "invalid suffix in input: %s",
		sseMissingI:        "missing 'i' suffix in input: %s (e.g Ki/Mi/Gi)",
	}[e]
	n.convError(msg, utilcmd.Q(n.c, s))
	return val, prec, e
}

// expld scales val down by base until it is below base.
func expld(val *big.Float, base int64) (*big.Float, int) {
	v := ld().Set(val)
	power := 0
	if v.IsInf() {
		return v, 0
	}
	b := ldInt(base)
	for new(big.Float).Abs(v).Cmp(b) >= 0 {
		power++
		v.Quo(v, b)
	}
	return v, power
}

// simpleRound rounds to an integer the way numfmt's helpers do.
func (n *numfmt) simpleRound(v *big.Float) *big.Float {
	trunc := func(x *big.Float) *big.Float {
		i, _ := x.Int(nil)
		return ld().SetInt(i)
	}
	ceil := func(x *big.Float) *big.Float {
		t := trunc(x)
		if t.Cmp(x) < 0 {
			t.Add(t, ldInt(1))
		}
		return t
	}
	floor := func(x *big.Float) *big.Float {
		t := ceil(ld().Neg(x))
		return t.Neg(t)
	}
	switch n.round {
	case roundUp:
		return ceil(v)
	case roundDown:
		return floor(v)
	case roundFromZero:
		if v.Sign() < 0 {
			return floor(v)
		}
		return ceil(v)
	case roundTowardsZero:
		return trunc(v)
	}
	half := ld().SetFloat64(0.5)
	if v.Sign() < 0 {
		return trunc(ld().Sub(v, half))
	}
	return trunc(ld().Add(v, half))
}

func (n *numfmt) fmtF(v *big.Float, prec int) string {
	s := cfmt.Spec{Width: -1, Prec: prec, Verb: 'f'}
	if n.zeroPad > 0 {
		s.Zero, s.Width = true, n.zeroPad
	}
	return cfmt.FloatString(s, cfmt.Float{F: v})
}

func lg(v *big.Float) string {
	return cfmt.FloatString(cfmt.Spec{Width: -1, Prec: -1, Verb: 'g'}, cfmt.Float{F: v})
}

// padded formats val and applies the padding.
func (n *numfmt) padded(val *big.Float, prec int) (string, bool) {
	used := prec
	if n.userPrec != -1 {
		used = n.userPrec
	}
	_, x := expld(val, 10)
	if n.to == scaleNone && x+used > maxUnscaledDigits {
		if used > 0 {
			n.convError("value/precision too large to be printed: '%s/%d' (consider using --to)", lg(val), used)
		} else {
			n.convError("value too large to be printed: '%s' (consider using --to)", lg(val))
		}
		return "", false
	}
	if x > maxAcceptableDigits-1 {
		n.convError("value too large to be printed: '%s' (cannot handle values > 999Y)", lg(val))
		return "", false
	}
	s := n.human(val, used)
	if n.hasSuffix {
		s += n.suffix
	}
	if n.padding > 0 && len(s) < n.padding {
		fill := strings.Repeat(" ", n.padding-len(s))
		if n.padLeft {
			s += fill
		} else {
			s = fill + s
		}
	}
	return s, true
}

// human is double_to_human.
func (n *numfmt) human(val *big.Float, prec int) string {
	if n.to == scaleNone {
		p := pow(10, prec)
		v := ld().Mul(val, p)
		v = n.simpleRound(v)
		v.Quo(v, p)
		return n.fmtF(v, prec)
	}
	base := int64(1000)
	if n.to == scaleIEC || n.to == scaleIECI {
		base = 1024
	}
	v, power := expld(val, base)
	adjust := 0
	if n.userPrec != -1 {
		adjust = min(power*3, n.userPrec)
	} else if new(big.Float).Abs(v).Cmp(ldInt(10)) < 0 {
		adjust = 1
	}
	p := pow(10, adjust)
	v.Mul(v, p)
	v = n.simpleRound(v)
	v.Quo(v, p)
	if new(big.Float).Abs(v).Cmp(ldInt(base)) >= 0 {
		v.Quo(v, ldInt(base))
		power++
	}
	show := 0
	if v.Sign() != 0 && new(big.Float).Abs(v).Cmp(ldInt(10)) < 0 && power > 0 {
		show = 1
	}
	prec = show
	if n.userPrec != -1 {
		prec = n.userPrec
	}
	s := n.fmtF(v, prec)
	if power > 0 {
		if power <= 8 {
			s += string("KMGTPEZY"[power-1])
		} else {
			s += "(error)"
		}
		if n.to == scaleIECI {
			s += "i"
		}
	}
	return s
}
