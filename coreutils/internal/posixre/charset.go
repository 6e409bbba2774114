package posixre

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/bashbox/bashbox/internal/lazy"
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

// classDef is a character class: explicit ranges plus Unicode categories.
type classDef struct {
	ranges []rng
	props  []string
}

// classes are the character classes of glibc's C.UTF-8 locale: alpha is
// Unicode's Alphabetic property plus the digits of other scripts, lower
// and upper are the Lowercase and Uppercase properties plus title-case
// letters, punct is every other graphic character.
// Built on first use: most runs never compile a POSIX expression.
var classes = lazy.Value[map[string]classDef]{New: buildClasses}

// wordDef is \w: alnum and the underscore.
var wordDef = lazy.Value[classDef]{New: func() classDef {
	w := classes.Get()["alnum"]
	w.ranges = append(append([]rng(nil), w.ranges...), rng{'_', '_'})
	return w
}}

var spaceRanges = []rng{{'\t', '\r'}, {' ', ' '}, {0x1680, 0x1680}, {0x2000, 0x2006}, {0x2008, 0x200a}, {0x2028, 0x2029}, {0x205f, 0x205f}, {0x3000, 0x3000}}

func buildClasses() map[string]classDef {
	classes := map[string]classDef{}
	otherDigits := tableRanges(unicode.Nd, func(r rune) bool { return r < 0x80 })
	alpha := append([]rng{{'A', 'Z'}, {'a', 'z'}}, tableRanges(unicode.Nl, nil)...)
	alpha = append(alpha, tableRanges(unicode.Other_Alphabetic, nil)...)
	alpha = append(alpha, otherDigits...)
	classes["alpha"] = classDef{alpha, []string{"L"}}
	classes["alnum"] = classDef{append([]rng{{'0', '9'}}, alpha...), []string{"L"}}
	classes["digit"] = classDef{[]rng{{'0', '9'}}, nil}
	classes["upper"] = classDef{append(append([]rng{{'A', 'Z'}}, tableRanges(unicode.Other_Uppercase, nil)...), tableRanges(unicode.Lt, nil)...), []string{"Lu"}}
	classes["lower"] = classDef{append(append([]rng{{'a', 'z'}}, tableRanges(unicode.Other_Lowercase, nil)...), tableRanges(unicode.Lt, nil)...), []string{"Ll"}}
	classes["space"] = classDef{spaceRanges, nil}
	classes["blank"] = classDef{[]rng{{'\t', '\t'}, {' ', ' '}, {0x1680, 0x1680}, {0x2000, 0x2006}, {0x2008, 0x200a}, {0x205f, 0x205f}, {0x3000, 0x3000}}, nil}
	// non-breaking spaces are graphic characters, not spaces, in glibc
	nbsp := []rng{{0xa0, 0xa0}, {0x2007, 0x2007}, {0x202f, 0x202f}}
	classes["punct"] = classDef{append([]rng{{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}, nbsp...), []string{"P", "S", "Mn", "Me", "No", "Cf"}}
	classes["print"] = classDef{[]rng{{' ', '~'}}, []string{"L", "M", "N", "P", "S", "Zs", "Cf"}}
	classes["graph"] = classDef{append([]rng{{'!', '~'}}, nbsp...), []string{"L", "M", "N", "P", "S", "Cf"}}
	classes["cntrl"] = classDef{[]rng{{0, 0x1f}, {0x7f, 0x9f}, {0x2028, 0x2029}}, nil}
	classes["xdigit"] = classDef{[]rng{{'0', '9'}, {'A', 'F'}, {'a', 'f'}}, nil}
	return classes
}

// tableRanges lists the ranges of a Unicode table, leaving out the
// characters skip selects.
func tableRanges(t *unicode.RangeTable, skip func(rune) bool) []rng {
	var out []rng
	add := func(lo, hi, stride rune) {
		if stride == 1 && skip == nil {
			out = append(out, rng{lo, hi})
			return
		}
		for r := lo; r <= hi; r += stride {
			if skip == nil || !skip(r) {
				out = append(out, rng{r, r})
			}
		}
	}
	for _, r := range t.R16 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return out
}

func (s *charSet) addClass(name string) bool {
	c, ok := classes.Get()[name]
	if !ok {
		return false
	}
	s.ranges = append(s.ranges[:len(s.ranges):len(s.ranges)], c.ranges...)
	s.props = append(s.props, c.props...)
	return true
}

func wordSet(negate bool) *charSet {
	w := wordDef.Get()
	return &charSet{negate: negate, ranges: w.ranges, props: w.props}
}

func spaceSet(negate bool) *charSet {
	return &charSet{negate: negate, ranges: spaceRanges}
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
	budget := 1 << 16
	for _, x := range s.ranges {
		for r := x.lo; r <= x.hi; r++ {
			if budget--; budget < 0 || !isWordRune(r) {
				return false
			}
		}
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
	ranges = mergeRanges(ranges)
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
	case r == '_':
		b.WriteByte('_')
	case r < 0x80:
		fmt.Fprintf(b, `\x%02x`, r)
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

// mergeRanges joins overlapping and adjacent sorted ranges.
func mergeRanges(rs []rng) []rng {
	out := rs[:0:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			if r.hi > out[n-1].hi {
				out[n-1].hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}
