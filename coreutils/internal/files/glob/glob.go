// Package glob matches names against shell patterns as fnmatch(3) does
// (*, ?, [...] with ! or ^, ranges and [:classes:], backslash escapes),
// with FNM_PERIOD, FNM_PATHNAME, FNM_CASEFOLD and FNM_LEADING_DIR. Find,
// ls, tar, grep, du, diff and the rest share this one matcher.
package glob

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Flags change how Match treats names.
type Flags int

const (
	// Period: a leading '.' must be matched by a literal '.' (FNM_PERIOD).
	Period Flags = 1 << iota
	// Pathname: '/' is matched only by a literal '/' (FNM_PATHNAME).
	Pathname
	// CaseFold matches letters regardless of case (FNM_CASEFOLD).
	CaseFold
	// LeadingDir: the pattern may match a leading part of name followed
	// by '/' (FNM_LEADING_DIR).
	LeadingDir
)

// Match reports whether name matches pattern. It backtracks over the
// last '*' only, which is enough since a '*' matches any run of
// characters (any run without '/' under Pathname), so it takes time
// linear in the name for each star.
func Match(pat, s string, flags Flags) bool {
	fold := flags&CaseFold != 0
	pathname := flags&Pathname != 0
	// leading reports whether s[i] is a '.' that only a literal matches.
	leading := func(i int) bool {
		return flags&Period != 0 && i < len(s) && s[i] == '.' && (i == 0 || pathname && s[i-1] == '/')
	}
	// wild reports whether a wildcard may match s[i].
	wild := func(i int) bool {
		return i < len(s) && !(pathname && s[i] == '/') && !leading(i)
	}
	pi, si := 0, 0
	starP, starS := -1, -1
	for {
		if pi < len(pat) {
			ok, adv, star := false, 0, false
			switch pat[pi] {
			case '*':
				star = true
			case '?':
				if wild(si) {
					_, n := runeAt(s, si)
					ok, adv = true, n
				}
			case '[':
				if si < len(s) {
					r, n := runeAt(s, si)
					m, plen, valid := matchBracket(pat, pi, r, fold)
					if valid {
						if m && wild(si) {
							pi += plen
							si += n
							continue
						}
						break
					}
					// no closing bracket: a literal '['
					if r == '[' {
						ok, adv = true, 1
					}
				}
			case '\\':
				if pi+1 < len(pat) {
					pr, pn := runeAt(pat, pi+1)
					if si < len(s) {
						r, n := runeAt(s, si)
						if foldEq(pr, r, fold) {
							pi += 1 + pn
							si += n
							continue
						}
					}
					break
				}
				if si < len(s) && s[si] == '\\' {
					ok, adv = true, 1
				}
			default:
				if si < len(s) {
					pr, pn := runeAt(pat, pi)
					r, n := runeAt(s, si)
					if foldEq(pr, r, fold) {
						pi += pn
						si += n
						continue
					}
				}
			}
			if star {
				starP, starS = pi, si
				pi++
				continue
			}
			if ok {
				pi++
				si += adv
				continue
			}
		} else if si == len(s) || flags&LeadingDir != 0 && s[si] == '/' {
			return true
		}
		// Let the last star take one more character, if it may.
		if starP < 0 || !wild(starS) {
			return false
		}
		_, n := runeAt(s, starS)
		starS += n
		pi, si = starP+1, starS
	}
}

// runeAt decodes the character at s[i:]; an invalid byte b is returned as
// a value outside Unicode so that it only equals itself.
func runeAt(s string, i int) (rune, int) {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		return 0x110000 + rune(s[i]), 1
	}
	return r, n
}

func foldEq(a, b rune, fold bool) bool {
	if a == b {
		return true
	}
	if !fold || a > unicode.MaxRune || b > unicode.MaxRune {
		return false
	}
	return unicode.ToLower(a) == unicode.ToLower(b) || unicode.ToUpper(a) == unicode.ToUpper(b)
}

// matchBracket matches r against the bracket expression at pat[i] ('[').
// It returns whether r matched, the length of the expression, and false
// when the expression has no closing bracket.
func matchBracket(pat string, i int, r rune, fold bool) (bool, int, bool) {
	j := i + 1
	neg := false
	if j < len(pat) && (pat[j] == '!' || pat[j] == '^') {
		neg = true
		j++
	}
	matched := false
	first := true
	for {
		if j >= len(pat) {
			return false, 0, false
		}
		c := pat[j]
		if c == ']' && !first {
			j++
			break
		}
		first = false
		var lo rune
		switch {
		case c == '[' && j+1 < len(pat) && (pat[j+1] == ':' || pat[j+1] == '=' || pat[j+1] == '.'):
			kind := pat[j+1]
			end := strings.Index(pat[j+2:], string(kind)+"]")
			if end < 0 {
				lo = '['
				j++
				goto single
			}
			name := pat[j+2 : j+2+end]
			j += 2 + end + 2
			switch kind {
			case ':':
				if classMatch(name, r, fold) {
					matched = true
				}
				continue
			default:
				cr, n := runeAt(name, 0)
				if n != len(name) || name == "" {
					continue
				}
				lo = cr
				goto rangeCheck
			}
		case c == '\\' && j+1 < len(pat):
			var n int
			lo, n = runeAt(pat, j+1)
			j += 1 + n
			goto rangeCheck
		default:
			var n int
			lo, n = runeAt(pat, j)
			j += n
			goto rangeCheck
		}
	single:
	rangeCheck:
		if j+1 < len(pat) && pat[j] == '-' && pat[j+1] != ']' {
			var hi rune
			var n int
			if pat[j+1] == '\\' && j+2 < len(pat) {
				hi, n = runeAt(pat, j+2)
				n++
			} else {
				hi, n = runeAt(pat, j+1)
			}
			j += 1 + n
			if inRange(r, lo, hi, fold) {
				matched = true
			}
			continue
		}
		if foldEq(lo, r, fold) {
			matched = true
		}
	}
	return matched != neg, j - i, true
}

func inRange(r, lo, hi rune, fold bool) bool {
	if lo <= r && r <= hi {
		return true
	}
	if fold && r <= unicode.MaxRune {
		l, u := unicode.ToLower(r), unicode.ToUpper(r)
		return lo <= l && l <= hi || lo <= u && u <= hi
	}
	return false
}

func classMatch(name string, r rune, fold bool) bool {
	if r > unicode.MaxRune {
		return false
	}
	switch name {
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return r >= '0' && r <= '9'
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "upper":
		return unicode.IsUpper(r) || fold && unicode.IsLower(r)
	case "lower":
		return unicode.IsLower(r) || fold && unicode.IsUpper(r)
	case "space":
		return unicode.IsSpace(r)
	case "blank":
		return r == ' ' || r == '\t' || unicode.Is(unicode.Zs, r) && r != 0xa0
	case "punct":
		if r < 0x80 {
			return r > 0x20 && r < 0x7f && !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}
		return unicode.IsPunct(r) || unicode.IsSymbol(r)
	case "print":
		return unicode.IsPrint(r)
	case "graph":
		return unicode.IsGraphic(r) && !unicode.IsSpace(r)
	case "cntrl":
		return unicode.IsControl(r)
	case "xdigit":
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
	}
	return false
}
