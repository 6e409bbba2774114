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
		if isDigit(ca) && isDigit(cb) {
			return int(ca) - int(cb)
		}
		if isDigit(ca) {
			for at(a, i) == '0' {
				i++
			}
			if isDigit(at(a, i)) {
				return 1
			}
			return 0
		}
		if isDigit(cb) {
			for at(b, j) == '0' {
				j++
			}
			if isDigit(at(b, j)) {
				return -1
			}
			return 0
		}
		return 0
	}
	if ca == '.' {
		i++
		for at(a, i) == '0' {
			i++
		}
		if isDigit(at(a, i)) {
			return 1
		}
		return 0
	}
	if cb == '.' {
		j++
		for at(b, j) == '0' {
			j++
		}
		if isDigit(at(b, j)) {
			return -1
		}
		return 0
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// strnumcmp compares two numbers as GNU sort -n does, without converting
// them: optional '-', digits, optional '.' and fraction; anything else
// ends the number. There is no thousands separator in the C locale.
func strnumcmp(a, b []byte) int {
	i, j := 0, 0
	ta, tb := at(a, 0), at(b, 0)
	if ta == '-' {
		for {
			i++
			ta = at(a, i)
			if ta != '0' {
				break
			}
		}
		if tb != '-' {
			if ta == '.' {
				for {
					i++
					ta = at(a, i)
					if ta != '0' {
						break
					}
				}
			}
			if isDigit(ta) {
				return -1
			}
			for tb == '0' {
				j++
				tb = at(b, j)
			}
			if tb == '.' {
				for {
					j++
					tb = at(b, j)
					if tb != '0' {
						break
					}
				}
			}
			return -b2i(isDigit(tb))
		}
		for {
			j++
			tb = at(b, j)
			if tb != '0' {
				break
			}
		}
		for ta == tb && isDigit(ta) {
			i++
			ta = at(a, i)
			j++
			tb = at(b, j)
		}
		if (ta == '.' && !isDigit(tb)) || (tb == '.' && !isDigit(ta)) {
			return fraccompare(b, j, a, i)
		}
		tmp := int(tb) - int(ta)
		la := 0
		for isDigit(ta) {
			la++
			i++
			ta = at(a, i)
		}
		lb := 0
		for isDigit(tb) {
			lb++
			j++
			tb = at(b, j)
		}
		if la != lb {
			if la < lb {
				return 1
			}
			return -1
		}
		if la == 0 {
			return 0
		}
		return tmp
	}
	if tb == '-' {
		for {
			j++
			tb = at(b, j)
			if tb != '0' {
				break
			}
		}
		if tb == '.' {
			for {
				j++
				tb = at(b, j)
				if tb != '0' {
					break
				}
			}
		}
		if isDigit(tb) {
			return 1
		}
		for ta == '0' {
			i++
			ta = at(a, i)
		}
		if ta == '.' {
			for {
				i++
				ta = at(a, i)
				if ta != '0' {
					break
				}
			}
		}
		return b2i(isDigit(ta))
	}
	for ta == '0' {
		i++
		ta = at(a, i)
	}
	for tb == '0' {
		j++
		tb = at(b, j)
	}
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
	la := 0
	for isDigit(ta) {
		la++
		i++
		ta = at(a, i)
	}
	lb := 0
	for isDigit(tb) {
		lb++
		j++
		tb = at(b, j)
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
		k := i + 2
		digits := 0
		for isHex(at(s, k)) {
			k++
			digits++
		}
		if at(s, k) == '.' {
			k++
			for isHex(at(s, k)) {
				k++
				digits++
			}
		}
		if digits > 0 {
			end := k
			if lower(k) == 'p' {
				e := k + 1
				if at(s, e) == '+' || at(s, e) == '-' {
					e++
				}
				if isDigit(at(s, e)) {
					for isDigit(at(s, e)) {
						e++
					}
					end = e
				}
			}
			str := string(s[start:end])
			if end == k {
				str += "p0"
			}
			v, err := strconv.ParseFloat(str, 64)
			if err != nil && !isRangeErr(err) {
				return 0, false
			}
			return v, true
		}
		// "0x" without digits: the "0" alone is the number.
		return 0, true
	}
	k := i
	digits := 0
	for isDigit(at(s, k)) {
		k++
		digits++
	}
	if at(s, k) == '.' {
		k++
		for isDigit(at(s, k)) {
			k++
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	end := k
	if lower(k) == 'e' {
		e := k + 1
		if at(s, e) == '+' || at(s, e) == '-' {
			e++
		}
		if isDigit(at(s, e)) {
			for isDigit(at(s, e)) {
				e++
			}
			end = e
		}
	}
	v, err := strconv.ParseFloat(string(s[start:end]), 64)
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
