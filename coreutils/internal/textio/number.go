package textio

import (
	"math"
	"math/bits"
	"strings"
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
	p := strings.TrimLeft(s, " \t\n\v\f\r")
	if strings.HasPrefix(p, "-") {
		return 0, NumInvalid
	}
	p = strings.TrimPrefix(p, "+")
	i := 0
	var v uint64
	overflow := false
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		d := uint64(p[i] - '0')
		hi, lo := bits.Mul64(v, 10)
		lo2, carry := bits.Add64(lo, d, 0)
		if hi != 0 || carry != 0 {
			overflow = true
		}
		v = lo2
		i++
	}
	if i == 0 {
		if len(p) > 0 && suffixes != "" && strings.IndexByte(suffixes, p[0]) >= 0 {
			v = 1
		} else {
			return 0, NumInvalid
		}
	}
	if overflow {
		v = math.MaxUint64
	}
	rest := p[i:]
	if rest == "" {
		if overflow {
			return v, NumOverflow
		}
		return v, NumOK
	}
	if suffixes == "" || strings.IndexByte(suffixes, rest[0]) < 0 {
		return v, NumInvalid
	}
	base := uint64(1024)
	n := 1
	if strings.IndexByte(suffixes, '0') >= 0 && len(rest) > 1 {
		switch {
		case rest[1] == 'i' && len(rest) > 2 && rest[2] == 'B':
			n = 3
		case rest[1] == 'B' || rest[1] == 'D':
			base = 1000
			n = 2
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
		return v, NumInvalid
	}
	for k := 0; k < power; k++ {
		hi, lo := bits.Mul64(v, base)
		if hi != 0 {
			overflow = true
			lo = math.MaxUint64
		}
		v = lo
	}
	if mult != 1 {
		hi, lo := bits.Mul64(v, mult)
		if hi != 0 {
			overflow = true
			lo = math.MaxUint64
		}
		v = lo
	}
	if len(rest) > n {
		return v, NumInvalid
	}
	if overflow {
		return math.MaxUint64, NumOverflow
	}
	return v, NumOK
}
