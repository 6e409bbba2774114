package sort

import (
	"bytes"
	"crypto/md5"
	"math"
	"strconv"
)

// at returns s[i], or 0 past the end (keys are compared as if
// NUL-terminated, as GNU does).
func at(s []byte, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// fraccompare compares the fractional parts starting at a[i] and b[j]
// (gnulib's fraccompare).
func fraccompare(a []byte, i int, b []byte, j int) int {
	ca, cb := at(a, i), at(b, j)
	if ca == '.' && cb == '.' {
		for {
			i++
			j++
			ca, cb = at(a, i), at(b, j)
			if ca != cb {
				break
			}
			if !isDigit(ca) {
				return 0
			}
		}
		switch {
		case isDigit(ca) && isDigit(cb):
			return int(ca) - int(cb)
		case isDigit(ca):
			return b2i(nonzeroDigits(a, i))
		case isDigit(cb):
			return -b2i(nonzeroDigits(b, j))
		}
		return 0
	}
	if ca == '.' {
		return b2i(nonzeroDigits(a, i+1))
	}
	if cb == '.' {
		return -b2i(nonzeroDigits(b, j+1))
	}
	return 0
}

// nonzeroDigits reports whether a digit other than 0 follows the zeros at
// s[i:].
func nonzeroDigits(s []byte, i int) bool {
	_, c := zeros(s, i)
	return isDigit(c)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// zeros skips the zeros at s[i:]; c is the byte after them.
func zeros(s []byte, i int) (next int, c byte) {
	for at(s, i) == '0' {
		i++
	}
	return i, at(s, i)
}

// past skips s[i] (a sign or a point) and the zeros after it.
func past(s []byte, i int) (next int, c byte) {
	return zeros(s, i+1)
}

// strnumcmp compares two numbers as GNU sort -n does, without converting
// them: optional '-', digits, optional '.' and fraction; anything else
// ends the number. There is no thousands separator in the C locale.
func strnumcmp(a, b []byte) int {
	negA, negB := at(a, 0) == '-', at(b, 0) == '-'
	switch {
	case negA && negB:
		i, _ := past(a, 0)
		j, _ := past(b, 0)
		return magnitudecmp(b, j, a, i)
	case negA:
		return negativecmp(a, b)
	case negB:
		return -negativecmp(b, a)
	}
	i, _ := zeros(a, 0)
	j, _ := zeros(b, 0)
	return magnitudecmp(a, i, b, j)
}

// negativecmp compares the negative number neg with the non-negative
// number pos: -1 unless both are zero.
func negativecmp(neg, pos []byte) int {
	i, c := past(neg, 0)
	if c == '.' {
		i, c = past(neg, i)
	}
	if isDigit(c) {
		return -1
	}
	j, c := zeros(pos, 0)
	if c == '.' {
		_, c = past(pos, j)
	}
	return -b2i(isDigit(c))
}

// magnitudecmp compares the unsigned numbers at a[i:] and b[j:], both past
// their leading zeros: the longer integer part is larger, then the first
// differing digit decides, then the fractions.
func magnitudecmp(a []byte, i int, b []byte, j int) int {
	ta, tb := at(a, i), at(b, j)
	for ta == tb && isDigit(ta) {
		i++
		ta = at(a, i)
		j++
		tb = at(b, j)
	}
	if (ta == '.' && !isDigit(tb)) || (tb == '.' && !isDigit(ta)) {
		return fraccompare(a, i, b, j)
	}
	tmp := int(ta) - int(tb)
	la, lb := 0, 0
	for ; isDigit(at(a, i)); i++ {
		la++
	}
	for ; isDigit(at(b, j)); j++ {
		lb++
	}
	if la != lb {
		if la < lb {
			return -1
		}
		return 1
	}
	if la == 0 {
		return 0
	}
	return tmp
}

func skipBlanks(s []byte) []byte {
	i := 0
	for i < len(s) && blanks[s[i]] {
		i++
	}
	return s[i:]
}

func numcompare(a, b []byte) int {
	return strnumcmp(skipBlanks(a), skipBlanks(b))
}

// unitOrder is the SI suffix order for -h.
var unitOrder = func() [256]int {
	var t [256]int
	for i, c := range "KMGTPEZY" {
		t[c] = i + 1
	}
	t['k'] = 1
	return t
}()

// findUnitOrder is GNU's find_unit_order: the signed order of the SI
// suffix after the number, 0 for none or for a zero number.
func findUnitOrder(s []byte) int {
	neg := at(s, 0) == '-'
	i := b2i(neg)
	var maxDigit byte
	for {
		c := at(s, i)
		if isDigit(c) {
			if c > maxDigit {
				maxDigit = c
			}
			i++
			continue
		}
		break
	}
	if at(s, i) == '.' {
		i++
		for isDigit(at(s, i)) {
			if at(s, i) > maxDigit {
				maxDigit = at(s, i)
			}
			i++
		}
	}
	if maxDigit > '0' {
		o := unitOrder[at(s, i)]
		if neg {
			return -o
		}
		return o
	}
	return 0
}

func humancompare(a, b []byte) int {
	a, b = skipBlanks(a), skipBlanks(b)
	if d := findUnitOrder(a) - findUnitOrder(b); d != 0 {
		return d
	}
	return strnumcmp(a, b)
}

// strtold parses the longest numeric prefix of s as strtold does;
// ok is false when there is none.
func strtold(s []byte) (float64, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	start := i
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	lower := func(k int) byte {
		c := at(s, k)
		if c >= 'A' && c <= 'Z' {
			c += 32
		}
		return c
	}
	matchWord := func(k int, w string) bool {
		for n := 0; n < len(w); n++ {
			if lower(k+n) != w[n] {
				return false
			}
		}
		return true
	}
	if matchWord(i, "inf") {
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if matchWord(i, "nan") {
		v := math.NaN()
		if neg {
			v = math.Copysign(v, -1)
		}
		return v, true
	}
	if at(s, i) == '0' && lower(i+1) == 'x' {
		k, digits := mantissa(s, i+2, isHex)
		if digits == 0 {
			// "0x" without digits: the "0" alone is the number.
			return 0, true
		}
		end := exponent(s, k, lower, 'p')
		str := string(s[start:end])
		if end == k {
			str += "p0"
		}
		return parseFloat(str)
	}
	k, digits := mantissa(s, i, isDigit)
	if digits == 0 {
		return 0, false
	}
	return parseFloat(string(s[start:exponent(s, k, lower, 'e')]))
}

// mantissa scans digits, a point and digits from s[k:]; digits counts
// the digits.
func mantissa(s []byte, k int, digit func(byte) bool) (end, digits int) {
	for ; digit(at(s, k)); k++ {
		digits++
	}
	if at(s, k) == '.' {
		for k++; digit(at(s, k)); k++ {
			digits++
		}
	}
	return k, digits
}

// exponent returns the end of the exponent (letter, a sign, digits) at
// s[k:], or k when there is none.
func exponent(s []byte, k int, lower func(int) byte, letter byte) int {
	if lower(k) != letter {
		return k
	}
	e := k + 1
	if at(s, e) == '+' || at(s, e) == '-' {
		e++
	}
	if !isDigit(at(s, e)) {
		return k
	}
	for isDigit(at(s, e)) {
		e++
	}
	return e
}

// parseFloat converts a scanned number; an overflow is an infinity and an
// underflow zero, as strtold gives them.
func parseFloat(str string) (float64, bool) {
	v, err := strconv.ParseFloat(str, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return v, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func generalcompare(sa, sb []byte) int {
	a, oka := strtold(sa)
	b, okb := strtold(sb)
	if !oka {
		if !okb {
			return 0
		}
		return -1
	}
	if !okb {
		return 1
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	case b == b:
		return -1
	case a == a:
		return 1
	}
	// Both NaN: by bit pattern; a negative NaN sorts after a positive one.
	return b2i(math.Signbit(a)) - b2i(math.Signbit(b))
}

var months = [12]string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

func getmonth(s []byte) int {
	s = skipBlanks(s)
	if len(s) < 3 {
		return 0
	}
	var m [3]byte
	for i := 0; i < 3; i++ {
		m[i] = foldUpper[s[i]]
	}
	for i, name := range months {
		if string(m[:]) == name {
			return i + 1
		}
	}
	return 0
}

// Version sort: gnulib's filevercmp.

// filePrefixLen is the length of s without its file suffix, the longest
// match of (\.[A-Za-z~][A-Za-z0-9~]*)*$.

// randomDigest is the MD5 of the salt and the key, as GNU -R hashes; in
// a locale with real collation the key's strxfrm form, which in C.UTF-8
// is the key itself, is hashed with its terminating NUL.
func (s *sorter) randomDigest(key []byte) [16]byte {
	h := md5.New()
	h.Write(s.salt[:])
	h.Write(key)
	if s.hardCollate && len(key) > 0 {
		h.Write([]byte{0})
	}
	var d [16]byte
	h.Sum(d[:0])
	return d
}

func (s *sorter) randomcompare(a, b []byte) int {
	da, db := s.randomDigest(a), s.randomDigest(b)
	if d := bytes.Compare(da[:], db[:]); d != 0 {
		return d
	}
	return bytes.Compare(a, b)
}
