package find

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// glob is a compiled shell pattern, matched as GNU fnmatch does without
// flags (or with FNM_CASEFOLD): '*' and '?' match '/' and leading dots,
// brackets take ranges, negation with ! or ^, and [:class:]; a backslash
// quotes the next character. Characters are UTF-8 runes; a byte that is
// not valid UTF-8 stands for itself.
type glob struct {
	pat  string
	fold bool
	kind int
	lit  string
}

const (
	globGeneral = iota
	globExact
	globPrefix   // lit*
	globSuffix   // *lit
	globContains // *lit*
	globAll      // *
)

func compileGlob(pat string, fold bool) *glob {
	g := &glob{pat: pat, fold: fold}
	if fold {
		return g
	}
	if !strings.ContainsAny(pat, "*?[\\") {
		g.kind, g.lit = globExact, pat
		return g
	}
	if pat == "*" {
		g.kind = globAll
		return g
	}
	inner := strings.Trim(pat, "*")
	if strings.ContainsAny(inner, "*?[\\") {
		return g
	}
	lead := strings.HasPrefix(pat, "*")
	trail := strings.HasSuffix(pat, "*")
	if strings.Count(pat, "*") != boolInt(lead)+boolInt(trail) {
		return g
	}
	g.lit = inner
	switch {
	case lead && trail:
		g.kind = globContains
	case lead:
		g.kind = globSuffix
	case trail:
		g.kind = globPrefix
	}
	return g
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (g *glob) match(s string) bool {
	switch g.kind {
	case globExact:
		return s == g.lit
	case globPrefix:
		return strings.HasPrefix(s, g.lit)
	case globSuffix:
		return strings.HasSuffix(s, g.lit)
	case globContains:
		return strings.Contains(s, g.lit)
	case globAll:
		return true
	}
	return fnmatch(g.pat, s, g.fold)
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

// fnmatch matches s against pat, backtracking over the last '*' only,
// which is enough since '*' matches any run of characters.
func fnmatch(pat, s string, fold bool) bool {
	pi, si := 0, 0
	starP, starS := -1, -1
	for {
		if pi < len(pat) {
			ok, adv, star := false, 0, false
			pc := pat[pi]
			switch pc {
			case '*':
				star = true
			case '?':
				if si < len(s) {
					_, n := runeAt(s, si)
					ok, adv = true, n
				}
			case '[':
				if si < len(s) {
					r, n := runeAt(s, si)
					m, plen, valid := matchBracket(pat, pi, r, fold)
					if valid {
						if m {
							ok, adv = true, n
						}
						if ok {
							pi += plen
							si += adv
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
				pi += 1
				si += adv
				continue
			}
		} else if si == len(s) {
			return true
		}
		if starP < 0 || starS >= len(s) {
			return false
		}
		_, n := runeAt(s, starS)
		starS += n
		pi, si = starP+1, starS
	}
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
