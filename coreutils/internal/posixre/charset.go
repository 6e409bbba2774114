package posixre

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

type rng struct{ lo, hi rune }

// charSet is a bracket expression or a class escape: explicit ranges plus
// Unicode categories, possibly negated.
type charSet struct {
	negate bool
	ranges []rng
	props  []string // Unicode general categories (\p{L})
}

func (s *charSet) addRange(lo, hi rune) { s.ranges = append(s.ranges, rng{lo, hi}) }

// Character classes as in glibc's C.UTF-8 locale: ASCII ranges plus the
// Unicode categories that glibc puts in each class.
var classes = map[string]struct {
	ranges []rng
	props  []string
}{
	"alpha":  {[]rng{{'A', 'Z'}, {'a', 'z'}}, []string{"L"}},
	"digit":  {[]rng{{'0', '9'}}, nil},
	"alnum":  {[]rng{{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}, []string{"L"}},
	"upper":  {[]rng{{'A', 'Z'}}, []string{"Lu"}},
	"lower":  {[]rng{{'a', 'z'}}, []string{"Ll"}},
	"space":  {spaceRanges, nil},
	"blank":  {[]rng{{'\t', '\t'}, {' ', ' '}, {0x1680, 0x1680}, {0x2000, 0x2006}, {0x2008, 0x200a}, {0x205f, 0x205f}, {0x3000, 0x3000}}, nil},
	"punct":  {[]rng{{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}, []string{"P", "S"}},
	"print":  {[]rng{{' ', '~'}, {0xa0, 0xa0}}, []string{"L", "M", "N", "P", "S", "Zs"}},
	"graph":  {[]rng{{'!', '~'}}, []string{"L", "M", "N", "P", "S"}},
	"cntrl":  {[]rng{{0, 0x1f}, {0x7f, 0x9f}, {0x2028, 0x2029}}, nil},
	"xdigit": {[]rng{{'0', '9'}, {'A', 'F'}, {'a', 'f'}}, nil},
}

var spaceRanges = []rng{{'\t', '\r'}, {' ', ' '}, {0x1680, 0x1680}, {0x2000, 0x2006}, {0x2008, 0x200a}, {0x2028, 0x2029}, {0x205f, 0x205f}, {0x3000, 0x3000}}

func (s *charSet) addClass(name string) bool {
	c, ok := classes[name]
	if !ok {
		return false
	}
	s.ranges = append(s.ranges, c.ranges...)
	s.props = append(s.props, c.props...)
	return true
}

func wordSet(negate bool) *charSet {
	s := &charSet{negate: negate}
	s.addClass("alnum")
	s.addRange('_', '_')
	return s
}

func spaceSet(negate bool) *charSet {
	s := &charSet{negate: negate}
	s.addClass("space")
	return s
}

// contains reports whether r is in the set.
func (s *charSet) contains(r rune) bool {
	in := false
	for _, x := range s.ranges {
		if r >= x.lo && r <= x.hi {
			in = true
			break
		}
	}
	if !in {
		for _, p := range s.props {
			if t := unicode.Categories[p]; t != nil && unicode.Is(t, r) {
				in = true
				break
			}
		}
	}
	return in != s.negate
}

// onlyWord reports whether every character of the set is a word character
// (so that \< before it is a plain \b).
func (s *charSet) onlyWord() bool {
	if s.negate {
		return false
	}
	for _, p := range s.props {
		if p != "L" && p != "Lu" && p != "Ll" {
			return false
		}
	}
	for _, x := range s.ranges {
		for _, w := range []rng{{'0', '9'}, {'A', 'Z'}, {'a', 'z'}, {'_', '_'}} {
			if x.lo >= w.lo && x.hi <= w.hi {
				goto ok
			}
		}
		if x.lo >= 0x80 {
			// non-ASCII explicit characters: word if letters
			for r := x.lo; r <= x.hi && r < x.lo+256; r++ {
				if !unicode.IsLetter(r) {
					return false
				}
			}
			if x.hi-x.lo < 256 {
				goto ok
			}
		}
		return false
	ok:
	}
	return true
}

// single returns the one character the set holds, if that is all it is.
func (s *charSet) single() (rune, bool) {
	if s.negate || len(s.props) > 0 || len(s.ranges) != 1 || s.ranges[0].lo != s.ranges[0].hi {
		return 0, false
	}
	return s.ranges[0].lo, true
}

// emit writes the set in Go or .NET syntax. In lines mode a newline is
// never part of the set.
func (s *charSet) emit(b *strings.Builder, dotnet, lines bool) {
	ranges := append([]rng(nil), s.ranges...)
	sort.Slice(ranges, func(i, j int) bool { return ranges[i].lo < ranges[j].lo })
	if lines {
		if s.negate {
			ranges = append(ranges, rng{'\n', '\n'})
		} else {
			var out []rng
			for _, x := range ranges {
				if x.lo <= '\n' && x.hi >= '\n' {
					if x.lo < '\n' {
						out = append(out, rng{x.lo, '\n' - 1})
					}
					if x.hi > '\n' {
						out = append(out, rng{'\n' + 1, x.hi})
					}
					continue
				}
				out = append(out, x)
			}
			ranges = out
		}
	}
	if len(ranges) == 0 && len(s.props) == 0 {
		if s.negate {
			// matches any character
			if dotnet {
				b.WriteString(`[\s\S]`)
			} else {
				b.WriteString(`(?s:.)`)
			}
		} else {
			if dotnet {
				b.WriteString(`(?!)`)
			} else {
				b.WriteString(`[^\x00-\x{10FFFF}]`)
			}
		}
		return
	}
	b.WriteByte('[')
	if s.negate {
		b.WriteByte('^')
	}
	for _, x := range ranges {
		writeRune(b, x.lo, dotnet)
		if x.hi != x.lo {
			b.WriteByte('-')
			writeRune(b, x.hi, dotnet)
		}
	}
	seen := map[string]bool{}
	for _, p := range s.props {
		if seen[p] {
			continue
		}
		seen[p] = true
		b.WriteString(`\p{`)
		b.WriteString(p)
		b.WriteByte('}')
	}
	b.WriteByte(']')
}

// writeRune writes one character escaped for either syntax.
func writeRune(b *strings.Builder, r rune, dotnet bool) {
	switch {
	case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
		b.WriteRune(r)
	case r < 0x20 || r == 0x7f:
		fmt.Fprintf(b, `\x%02x`, r)
	case r < 0x80:
		b.WriteByte('\\')
		b.WriteRune(r)
	case dotnet:
		if r <= 0xffff {
			fmt.Fprintf(b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	default:
		fmt.Fprintf(b, `\x{%x}`, r)
	}
}
