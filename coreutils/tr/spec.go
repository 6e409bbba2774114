package tr

import (
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/internal/printf"
)

// escString is an argument after backslash processing, with which bytes
// came from escapes.
type escString struct {
	s       []byte
	escaped []bool
}

func (es *escString) match(i int, c byte) bool {
	return i < len(es.s) && es.s[i] == c && !es.escaped[i]
}

func unquote(c *builtins.Call, s string) *escString {
	es := &escString{}
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			es.s = append(es.s, s[i])
			es.escaped = append(es.escaped, false)
			continue
		}
		esc := true
		var ch byte
		next := byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		switch {
		case i+1 >= len(s):
			c.Errorf("warning: an unescaped backslash at end of string is not portable")
			esc = false
			ch = '\\'
			i--
		case next == '\\':
			ch = '\\'
		case escapeLetter(next) != 0:
			ch = escapeLetter(next)
		case next >= '0' && next <= '7':
			v := int(next - '0')
			if i+2 < len(s) && s[i+2] >= '0' && s[i+2] <= '7' {
				v = 8*v + int(s[i+2]-'0')
				i++
				if i+2 < len(s) && s[i+2] >= '0' && s[i+2] <= '7' {
					if 8*v+int(s[i+2]-'0') < 256 {
						v = 8*v + int(s[i+2]-'0')
						i++
					} else {
						c.Errorf("warning: the ambiguous octal escape \\%c%c%c is being\n\tinterpreted as the 2-byte sequence \\0%c%c, %c",
							s[i], s[i+1], s[i+2], s[i], s[i+1], s[i+2])
					}
				}
			}
			ch = byte(v)
		default:
			ch = next
		}
		i++
		es.s = append(es.s, ch)
		es.escaped = append(es.escaped, esc)
	}
	return es
}

func printableChar(c byte) string {
	if isPrint(int(c)) {
		return string(c)
	}
	return fmt.Sprintf("\\%03o", c)
}

func printableStr(s []byte) string {
	var out []byte
	for _, c := range s {
		if c == '\\' {
			out = append(out, '\\')
		} else if l, ok := printf.LetterOf(c); ok {
			out = append(out, '\\', l)
		} else {
			out = append(out, printableChar(c)...)
		}
	}
	return string(out)
}

// escapeLetters are the C escape letters tr knows: printf's without \e.
const escapeLetters = "abfnrtv"

// escapeLetter is the byte the escape letter l stands for, 0 if none.
func escapeLetter(l byte) byte {
	if strings.IndexByte(escapeLetters, l) < 0 {
		return 0
	}
	c, _ := printf.Letter(l)
	return c
}

func findClosingDelim(es *escString, start int, pre byte) int {
	for i := start; i+1 < len(es.s); i++ {
		if es.s[i] == pre && es.s[i+1] == ']' && !es.escaped[i] && !es.escaped[i+1] {
			return i
		}
	}
	return -1
}

// findBracketedRepeat parses "c*n]" at start; 0 on success, -1 when it is
// not a repeat construct, -2 after reporting a bad count.
func findBracketedRepeat(c *builtins.Call, es *escString, start int) (ch byte, count uint64, closeIdx int, res int) {
	if !es.match(start+1, '*') {
		return 0, 0, 0, -1
	}
	for i := start + 2; i < len(es.s) && !es.escaped[i]; i++ {
		if es.s[i] != ']' {
			continue
		}
		digits := es.s[start+2 : i]
		ch = es.s[start]
		if len(digits) == 0 {
			return ch, 0, i, 0
		}
		base := uint64(10)
		if digits[0] == '0' {
			base = 8
		}
		var v uint64
		ok := true
		for _, d := range digits {
			dv := uint64(d) - '0'
			if d < '0' || d > '9' || dv >= base {
				ok = false
				break
			}
			if v > (repeatMax-dv)/base {
				ok = false
				break
			}
			v = v*base + dv
		}
		if !ok {
			c.Errorf("invalid repeat count %s in [c*n] construct", quote.New(c).Q(printableStr(digits)))
			return 0, 0, 0, -2
		}
		return ch, v, i, 0
	}
	return 0, 0, 0, -1
}

func starDigitsCloseBracket(es *escString, idx int) bool {
	if !es.match(idx, '*') {
		return false
	}
	for i := idx + 1; i < len(es.s); i++ {
		if !isDigit(int(es.s[i])) || es.escaped[i] {
			return es.match(i, ']')
		}
	}
	return false
}

func lookupClass(name []byte) (class, bool) {
	for i, n := range classNames {
		if n == string(name) {
			return class(i), true
		}
	}
	return 0, false
}

// buildSpecList turns an unquoted argument into its constructs.
func buildSpecList(c *builtins.Call, es *escString) (*specList, bool) {
	s := &specList{}
	p := es.s
	i := 0
	for i+2 < len(p) {
		if es.match(i, '[') {
			if es.match(i+1, ':') || es.match(i+1, '=') {
				if cl := findClosingDelim(es, i+2, p[i+1]); cl >= 0 {
					opnd := p[i+2 : cl]
					if len(opnd) == 0 {
						if p[i+1] == ':' {
							c.Errorf("missing character class name '[::]'")
						} else {
							c.Errorf("missing equivalence class character '[==]'")
						}
						return nil, false
					}
					handled := false
					if p[i+1] == ':' {
						if cc, ok := lookupClass(opnd); ok {
							s.elems = append(s.elems, elem{typ: eClass, cc: cc})
							handled = true
						} else if !starDigitsCloseBracket(es, i+2) {
							c.Errorf("invalid character class %s", quote.New(c).Q(printableStr(opnd)))
							return nil, false
						}
					} else {
						if len(opnd) == 1 {
							s.elems = append(s.elems, elem{typ: eEquiv, ch: opnd[0]})
							handled = true
						} else if !starDigitsCloseBracket(es, i+2) {
							c.Errorf("%s: equivalence class operand must be a single character", printableStr(opnd))
							return nil, false
						}
					}
					if handled {
						i = cl + 2
						continue
					}
				}
			}
			ch, count, closeIdx, res := findBracketedRepeat(c, es, i+1)
			if res == 0 {
				s.elems = append(s.elems, elem{typ: eRepeat, ch: ch, count: count})
				i = closeIdx + 1
				continue
			}
			if res == -2 {
				return nil, false
			}
		}
		if es.match(i+1, '-') {
			if p[i+2] < p[i] {
				c.Errorf("range-endpoints of '%s-%s' are in reverse collating sequence order", printableChar(p[i]), printableChar(p[i+2]))
				return nil, false
			}
			s.elems = append(s.elems, elem{typ: eRange, first: p[i], last: p[i+2]})
			i += 3
		} else {
			s.elems = append(s.elems, elem{typ: eNormal, ch: p[i]})
			i++
		}
	}
	for ; i < len(p); i++ {
		s.elems = append(s.elems, elem{typ: eNormal, ch: p[i]})
	}
	return s, true
}
