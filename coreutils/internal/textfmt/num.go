package textfmt

import (
	"math"
	"strconv"
	"strings"
)

// Diagnostic suffixes of gnulib's xdectoint family.
const (
	ErrRangeText    = "Numerical result out of range"
	ErrOverflowText = "Value too large for defined data type"
)

// DecToInt parses a decimal integer as gnulib's xdectoimax does (leading
// blanks and a sign allowed, nothing after the digits) and checks it lies
// in [min, max]. On failure ok is false and errText is what follows the
// quoted value in the diagnostic ("" for an invalid number, else ": " and
// the C library's error text).
func DecToInt(s string, min, max int64) (v int64, errText string, ok bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	if t == "" {
		return 0, "", false
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		ne, isNum := err.(*strconv.NumError)
		if isNum && ne.Err == strconv.ErrRange {
			return 0, ": " + ErrOverflowText, false
		}
		return 0, "", false
	}
	if n < min || n > max {
		if n > math.MaxInt32/2 || n < math.MinInt32/2 {
			return 0, ": " + ErrOverflowText, false
		}
		return 0, ": " + ErrRangeText, false
	}
	return n, "", true
}

// DecToUint is DecToInt for unsigned values (xdectoumax): a minus sign
// makes the number invalid.
func DecToUint(s string, min, max uint64) (v uint64, errText string, ok bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	if t == "" || t[0] == '-' {
		return 0, "", false
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(t, "+"), 10, 64)
	if err != nil || strings.HasPrefix(t, "+-") || strings.HasPrefix(t, "++") {
		ne, isNum := err.(*strconv.NumError)
		if isNum && ne.Err == strconv.ErrRange {
			return 0, ": " + ErrOverflowText, false
		}
		return 0, "", false
	}
	if n < min || n > max {
		if n > math.MaxInt32/2 {
			return 0, ": " + ErrOverflowText, false
		}
		return 0, ": " + ErrRangeText, false
	}
	return n, "", true
}
