package textio

import (
	"math"
	"math/bits"
	"strings"

	"github.com/bashbox/bashbox/internal/printf"
)

// NumErr is the outcome of ParseUint, after gnulib's xstrtoumax.
type NumErr int

const (
	NumOK NumErr = iota
	NumInvalid
	NumOverflow
)

// ParseUint parses a decimal count with an optional multiplier suffix, as
// gnulib's xstrtoumax does. suffixes lists the allowed suffix letters; a
// '0' in it allows the two-letter forms KB (powers of 1000) and KiB
// (powers of 1024) after a letter. Leading blanks and '+' are allowed, a
// '-' is not. A valid suffix with no digits means 1.
func ParseUint(s, suffixes string) (uint64, NumErr) {
	n := ScanUint(s, 10, suffixes)
	switch {
	case n.Invalid || n.BadSuffix:
		return n.Value, NumInvalid
	case n.Overflow:
		return math.MaxUint64, NumOverflow
	}
	return n.Value, NumOK
}

// Scanned is what ScanUint read: the value (saturated at the maximum on
// overflow) and how it was written, for callers that word their errors
// as gnulib's xstrtol_fatal does or show the suffix again.
type Scanned struct {
	Value     uint64
	Digits    bool   // digits were given (a lone suffix means 1)
	Suffix    string // the valid suffix read ("K", "KiB", "kB"...)
	Invalid   bool   // no number at all
	BadSuffix bool   // a number followed by what is not a valid suffix
	Overflow  bool   // the number or its multiple does not fit
	Rest      string // what follows the digits and any valid suffix
}

// ScanUint is xstrtoumax (strtoumax when suffixes is empty: Rest is then
// what follows the number): blanks, an optional '+', digits in base (0:
// C's rule, 0x for hex and a leading 0 for octal), and an optional
// multiplier suffix among suffixes (see ParseUint).
func ScanUint(s string, base int, suffixes string) Scanned {
	p := strings.TrimLeft(s, " \t\n\v\f\r")
	if strings.HasPrefix(p, "-") {
		return Scanned{Invalid: true}
	}
	p = strings.TrimPrefix(p, "+")
	if base == 0 {
		base = 10
		switch {
		case len(p) > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isHex(p[2]):
			base, p = 16, p[2:]
		case len(p) > 0 && p[0] == '0':
			base = 8
		}
	}
	var n Scanned
	i := 0
	var v uint64
	for ; i < len(p); i++ {
		d := printf.DigitVal(p[i])
		if d < 0 || d >= base {
			break
		}
		hi, lo := bits.Mul64(v, uint64(base))
		lo2, carry := bits.Add64(lo, uint64(d), 0)
		if hi != 0 || carry != 0 {
			n.Overflow = true
		}
		v = lo2
	}
	n.Digits = i > 0
	if !n.Digits {
		if len(p) > 0 && suffixes != "" && strings.IndexByte(suffixes, p[0]) >= 0 {
			v = 1
		} else {
			return Scanned{Invalid: true}
		}
	}
	if n.Overflow {
		v = math.MaxUint64
	}
	n.Value = v
	rest := p[i:]
	n.Rest = rest
	if rest == "" {
		return n
	}
	if suffixes == "" || strings.IndexByte(suffixes, rest[0]) < 0 {
		n.BadSuffix = true
		return n
	}
	mbase := uint64(1024)
	k := 1
	if strings.IndexByte(suffixes, '0') >= 0 && len(rest) > 1 {
		switch {
		case rest[1] == 'i' && len(rest) > 2 && rest[2] == 'B':
			k = 3
		case rest[1] == 'B' || rest[1] == 'D':
			mbase = 1000
			k = 2
		}
	}
	var power int
	mult := uint64(1)
	switch rest[0] {
	case 'b':
		mult = 512
	case 'B':
		mult = 1024
	case 'c':
		mult = 1
	case 'w':
		mult = 2
	case 'k', 'K':
		power = 1
	case 'm', 'M':
		power = 2
	case 'g', 'G':
		power = 3
	case 't', 'T':
		power = 4
	case 'P':
		power = 5
	case 'E':
		power = 6
	case 'Z':
		power = 7
	case 'Y':
		power = 8
	case 'R':
		power = 9
	case 'Q':
		power = 10
	default:
		n.BadSuffix = true
		return n
	}
	for range power {
		v = mulSat(v, mbase, &n.Overflow)
	}
	if mult != 1 {
		v = mulSat(v, mult, &n.Overflow)
	}
	n.Value = v
	if len(rest) > k {
		// Past a valid suffix, as gnulib leaves its end pointer:
		// callers that allow a delimiter there (cmp's SKIP1:SKIP2)
		// look at Rest.
		n.BadSuffix, n.Rest = true, rest[k:]
		return n
	}
	n.Suffix, n.Rest = rest[:k], ""
	return n
}

// ScanSigned is ScanUint for strtol-style input: blanks, one optional
// sign, then the number with nothing between; neg says the sign was a
// minus (the caller negates or refuses it).
func ScanSigned(s string, base int, suffixes string) (neg bool, n Scanned) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg, t = t[0] == '-', t[1:]
		if t == "" || strings.IndexByte(" \t\n\v\f\r+-", t[0]) >= 0 {
			return neg, Scanned{Invalid: true}
		}
	}
	return neg, ScanUint(t, base, suffixes)
}

// mulSat is a*b, or the maximum with *overflow set when it does not fit.
func mulSat(a, b uint64, overflow *bool) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		*overflow = true
		return math.MaxUint64
	}
	return lo
}

func isHex(c byte) bool {
	d := printf.DigitVal(c)
	return d >= 0 && d < 16
}
