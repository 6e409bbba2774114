// Package glob matches names against shell patterns as fnmatch(3) does
// (*, ?, [...] with ! or ^, ranges and [:classes:], backslash escapes).
package glob

import (
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

// Match reports whether name matches pattern.
func Match(pattern, name string, flags Flags) bool {
	return match(pattern, name, flags, true)
}

func match(p, s string, flags Flags, atStart bool) bool {
	for len(p) > 0 {
		if flags&Period != 0 && atStart && len(s) > 0 && s[0] == '.' && p[0] != '.' {
			return false
		}
		switch p[0] {
		case '*':
			for len(p) > 0 && p[0] == '*' {
				p = p[1:]
			}
			if len(p) == 0 {
				if flags&Pathname != 0 {
					for i := 0; i < len(s); i++ {
						if s[i] == '/' {
							return flags&LeadingDir != 0
						}
					}
				}
				return true
			}
			for i := 0; i <= len(s); i++ {
				if i > 0 && flags&Pathname != 0 && s[i-1] == '/' {
					return false
				}
				if match(p, s[i:], flags, false) {
					return true
				}
			}
			return false
		case '?':
			if len(s) == 0 || flags&Pathname != 0 && s[0] == '/' {
				return false
			}
			_, n := utf8.DecodeRuneInString(s)
			p, s = p[1:], s[n:]
		case '[':
			if len(s) == 0 || flags&Pathname != 0 && s[0] == '/' {
				return false
			}
			r, n := utf8.DecodeRuneInString(s)
			ok, rest, valid := matchClass(p, r, flags)
			if !valid {
				// An unclosed '[' is an ordinary character.
				if s[0] != '[' {
					return false
				}
				p, s = p[1:], s[1:]
				break
			}
			if !ok {
				return false
			}
			p, s = rest, s[n:]
		case '\\':
			if len(p) > 1 {
				p = p[1:]
			}
			fallthrough
		default:
			pr, pn := utf8.DecodeRuneInString(p)
			if len(s) == 0 {
				return false
			}
			sr, sn := utf8.DecodeRuneInString(s)
			if pr != sr && !(flags&CaseFold != 0 && unicode.SimpleFold(pr) != pr && foldEq(pr, sr)) {
				return false
			}
			p, s = p[pn:], s[sn:]
			atStart = flags&Pathname != 0 && sr == '/'
			continue
		}
		atStart = false
	}
	if len(s) == 0 {
		return true
	}
	return flags&LeadingDir != 0 && s[0] == '/'
}

func foldEq(a, b rune) bool {
	return unicode.ToLower(a) == unicode.ToLower(b)
}

// matchClass matches r against the bracket expression at the start of p.
func matchClass(p string, r rune, flags Flags) (matched bool, rest string, valid bool) {
	i := 1
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate = true
		i++
	}
	first := true
	for {
		if i >= len(p) {
			return false, "", false
		}
		if p[i] == ']' && !first {
			i++
			break
		}
		first = false
		if p[i] == '[' && i+1 < len(p) && p[i+1] == ':' {
			end := -1
			for j := i + 2; j+1 < len(p); j++ {
				if p[j] == ':' && p[j+1] == ']' {
					end = j
					break
				}
			}
			if end >= 0 {
				if classMatch(p[i+2:end], r) {
					matched = true
				}
				i = end + 2
				continue
			}
		}
		lo, n := decodeClassChar(p[i:])
		i += n
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi, n = decodeClassChar(p[i+1:])
			i += 1 + n
		}
		if lo <= r && r <= hi {
			matched = true
		} else if flags&CaseFold != 0 {
			lr := unicode.ToLower(r)
			ur := unicode.ToUpper(r)
			if lo <= lr && lr <= hi || lo <= ur && ur <= hi {
				matched = true
			}
		}
	}
	return matched != negate, p[i:], true
}

func decodeClassChar(p string) (rune, int) {
	if p[0] == '\\' && len(p) > 1 {
		r, n := utf8.DecodeRuneInString(p[1:])
		return r, n + 1
	}
	return utf8.DecodeRuneInString(p)
}

func classMatch(class string, r rune) bool {
	switch class {
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return r >= '0' && r <= '9'
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "upper":
		return unicode.IsUpper(r)
	case "lower":
		return unicode.IsLower(r)
	case "space":
		return unicode.IsSpace(r)
	case "blank":
		return r == ' ' || r == '\t'
	case "punct":
		return r < 0x80 && unicode.IsPunct(r) || r < 0x80 && unicode.IsSymbol(r)
	case "print":
		return unicode.IsPrint(r)
	case "graph":
		return unicode.IsPrint(r) && r != ' '
	case "cntrl":
		return unicode.IsControl(r)
	case "xdigit":
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
	}
	return false
}
