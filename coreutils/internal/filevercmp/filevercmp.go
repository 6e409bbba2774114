// Package filevercmp compares file names as gnulib's filevercmp does, the
// order of ls -v and sort -V: "." and ".." first, then hidden names, then
// the rest; names are compared without their suffixes first, with digit
// runs compared as numbers and "~" before everything, even the end.
package filevercmp

// Compare returns a negative number, zero or a positive number as a sorts
// before, with or after b.
func Compare[T ~string | ~[]byte](a, b T) int {
	if len(a) == 0 || len(b) == 0 {
		return min(len(a), 1) - min(len(b), 1)
	}
	if a[0] == '.' {
		if b[0] != '.' {
			return -1
		}
		for _, special := range []string{".", ".."} {
			as, bs := string(a) == special, string(b) == special
			switch {
			case as && bs:
				return 0
			case as:
				return -1
			case bs:
				return 1
			}
		}
	} else if b[0] == '.' {
		return 1
	}
	ap, bp := prefixLen(a), prefixLen(b)
	if r := verrevcmp(a[:ap], b[:bp]); r != 0 || ap == len(a) && bp == len(b) {
		return r
	}
	return verrevcmp(a, b)
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// prefixLen is the length of s without its suffix of the form
// (\.[A-Za-z~][A-Za-z0-9~]*)*; the first character always stays.
func prefixLen[T ~string | ~[]byte](s T) int {
	n, prefix := len(s), 0
	for i := 0; i < n; {
		i++
		prefix = i
		for i+1 < n && s[i] == '.' && (isAlpha(s[i+1]) || s[i+1] == '~') {
			for i += 2; i < n && (isAlpha(s[i]) || isDigit(s[i]) || s[i] == '~'); i++ {
			}
		}
	}
	return prefix
}

// order ranks the byte at pos: the end before "~" comes only after it,
// digits 0, letters by value, everything else after the letters.
func order[T ~string | ~[]byte](s T, pos int) int {
	if pos == len(s) {
		return -1
	}
	switch c := s[pos]; {
	case isDigit(c):
		return 0
	case isAlpha(c):
		return int(c)
	case c == '~':
		return -2
	default:
		return int(c) + 256
	}
}

func verrevcmp[T ~string | ~[]byte](s1, s2 T) int {
	p1, p2 := 0, 0
	for p1 < len(s1) || p2 < len(s2) {
		firstDiff := 0
		for (p1 < len(s1) && !isDigit(s1[p1])) || (p2 < len(s2) && !isDigit(s2[p2])) {
			if c1, c2 := order(s1, p1), order(s2, p2); c1 != c2 {
				return c1 - c2
			}
			p1++
			p2++
		}
		for p1 < len(s1) && s1[p1] == '0' {
			p1++
		}
		for p2 < len(s2) && s2[p2] == '0' {
			p2++
		}
		for p1 < len(s1) && p2 < len(s2) && isDigit(s1[p1]) && isDigit(s2[p2]) {
			if firstDiff == 0 {
				firstDiff = int(s1[p1]) - int(s2[p2])
			}
			p1++
			p2++
		}
		if p1 < len(s1) && isDigit(s1[p1]) {
			return 1
		}
		if p2 < len(s2) && isDigit(s2[p2]) {
			return -1
		}
		if firstDiff != 0 {
			return firstDiff
		}
	}
	return 0
}
