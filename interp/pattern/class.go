package pattern

import (
	"strings"
	"unicode"

	"github.com/bashbox/bashbox/internal/lazy"
)

// class is a bracket expression.
type class struct {
	neg     bool
	invalid bool   // an unknown [:name:]: bash's bracket then matches nothing
	chars   []rune // single characters
	ranges  []rune // lo, hi pairs
	named   []string
	nocase  bool
	ascii   [2]uint64 // membership of ASCII characters, negation applied
}

var classNames = lazy.Value[map[string]func(rune) bool]{New: func() map[string]func(rune) bool {
	return map[string]func(rune) bool{
		"alnum": func(r rune) bool { return isDigit(r) || unicode.IsLetter(r) },
		"alpha": unicode.IsLetter,
		"ascii": func(r rune) bool { return r < 0x80 },
		"blank": func(r rune) bool { return r == ' ' || r == '\t' || r > 0x7f && unicode.Is(unicode.Zs, r) },
		"cntrl": unicode.IsControl,
		"digit": isDigit,
		"graph": func(r rune) bool {
			return r > ' ' && r != 0x7f && (r < 0x80 || unicode.IsGraphic(r) && !unicode.IsSpace(r))
		},
		"lower":  unicode.IsLower,
		"print":  func(r rune) bool { return r >= ' ' && r != 0x7f && (r < 0x80 || unicode.IsPrint(r)) },
		"punct":  isPunct,
		"space":  unicode.IsSpace,
		"upper":  unicode.IsUpper,
		"word":   func(r rune) bool { return r == '_' || isDigit(r) || unicode.IsLetter(r) },
		"xdigit": func(r rune) bool { return isDigit(r) || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' },
	}
}}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isPunct(r rune) bool {
	if r < 0x80 {
		return r > ' ' && r < 0x7f && !isDigit(r) && !(r|0x20 >= 'a' && r|0x20 <= 'z')
	}
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}

// parseClass reads the bracket expression starting at pat[i] == '['. It
// returns the index after the closing ']', or ok=false when there is none
// (the '[' is then literal).
func parseClass(pat string, i int, flags Flags) (*class, int, bool) {
	c := &class{nocase: flags&NoCase != 0}
	j := i + 1
	if j < len(pat) && (pat[j] == '!' || pat[j] == '^') {
		c.neg = true
		j++
	}
	first := true
	for j < len(pat) {
		if pat[j] == ']' && !first {
			c.fill()
			return c, j + 1, true
		}
		first = false
		var lo rune
		if pat[j] == '[' && j+1 < len(pat) && (pat[j+1] == ':' || pat[j+1] == '=' || pat[j+1] == '.') {
			delim := pat[j+1]
			end := strings.Index(pat[j+2:], string(delim)+"]")
			if end < 0 {
				// No terminator: the '[' is an ordinary member.
				lo = '['
				j++
			} else {
				name := pat[j+2 : j+2+end]
				j += 2 + end + 2
				if delim == ':' {
					if _, ok := classNames.Get()[name]; ok {
						c.named = append(c.named, name)
					} else {
						c.invalid = true
					}
					continue
				}
				r, n := runeAt(name+"\x00", 0)
				if name == "" || n != len(name) {
					// Multi-character collating elements are not supported
					// by the C.UTF-8 locale: nothing matches them.
					c.invalid = true
					continue
				}
				lo = r
			}
		} else {
			var n int
			if pat[j] == '\\' && j+1 < len(pat) {
				j++
			}
			lo, n = runeAt(pat, j)
			j += n
		}
		// A range: lo-hi, unless the '-' is last.
		if j+1 < len(pat) && pat[j] == '-' && pat[j+1] != ']' {
			k := j + 1
			var hi rune
			if pat[k] == '[' && k+1 < len(pat) && pat[k+1] == '.' {
				end := strings.Index(pat[k+2:], ".]")
				if end < 0 {
					return nil, 0, false
				}
				name := pat[k+2 : k+2+end]
				r, n := runeAt(name+"\x00", 0)
				if name == "" || n != len(name) {
					c.invalid = true
				}
				hi = r
				k += 2 + end + 2
			} else {
				if pat[k] == '\\' && k+1 < len(pat) {
					k++
				}
				var n int
				hi, n = runeAt(pat, k)
				k += n
			}
			c.ranges = append(c.ranges, lo, hi)
			j = k
			continue
		}
		c.chars = append(c.chars, lo)
	}
	return nil, 0, false
}

// fill precomputes ASCII membership.
func (c *class) fill() {
	for r := rune(0); r < 0x80; r++ {
		if c.slowMatch(r) {
			c.ascii[r>>6] |= 1 << (r & 63)
		}
	}
}

func (c *class) match(r rune) bool {
	if r < 0x80 {
		return c.ascii[r>>6]&(1<<(r&63)) != 0
	}
	return c.slowMatch(r)
}

func (c *class) slowMatch(r rune) bool {
	if c.invalid {
		return false
	}
	return c.has(r) != c.neg
}

func (c *class) has(r rune) bool {
	for _, name := range c.named {
		if r < badRune && classNames.Get()[name](r) {
			return true
		}
	}
	if c.hasChar(r) {
		return true
	}
	if c.nocase && r < badRune {
		if l := unicode.ToLower(r); l != r && c.hasChar(l) {
			return true
		}
		if u := unicode.ToUpper(r); u != r && c.hasChar(u) {
			return true
		}
	}
	return false
}

func (c *class) hasChar(r rune) bool {
	for _, x := range c.chars {
		if x == r {
			return true
		}
	}
	for k := 0; k+1 < len(c.ranges); k += 2 {
		if c.ranges[k] <= r && r <= c.ranges[k+1] {
			return true
		}
	}
	return false
}

// litMatch compares a pattern character with a string character.
func litMatch(p, r rune, nocase bool) bool {
	if p == r {
		return true
	}
	if !nocase || p >= badRune || r >= badRune {
		return false
	}
	return unicode.ToLower(p) == unicode.ToLower(r) || unicode.ToUpper(p) == unicode.ToUpper(r)
}

// matchOne reports whether a single-character node matches r.
func (n *node) matchOne(r rune, nocase bool) bool {
	switch n.kind {
	case kLit:
		return litMatch(n.r, r, nocase)
	case kAny:
		return true
	case kClass:
		return n.cls.match(r)
	}
	return false
}
