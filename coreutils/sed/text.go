package sed

import (
	"strconv"

	"github.com/bashbox/bashbox/internal/printf"
)

type textType uint8

const (
	textNone        textType = iota // y strings
	textBuffer                      // a, i, c text
	textRegex                       // regular expressions
	textReplacement                 // s replacement
)

// normalizeText converts GNU sed's escapes: \a \f \n \r \t \v, \cX, \dNNN,
// \oNNN and \xHH. In a/i/c text any other escaped character stands for
// itself; elsewhere the backslash is kept for the later stages. A
// character produced by a numeric escape is literal in a replacement.
func normalizeText(s []byte, typ textType) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			out = append(out, c)
			continue
		}
		e := s[i+1]
		switch e {
		case 'a':
			out = append(out, '\a')
			i++
		case 'f':
			out = append(out, '\f')
			i++
		case 'n', '\n':
			out = append(out, '\n')
			i++
		case 'r':
			out = append(out, '\r')
			i++
		case 't':
			out = append(out, '\t')
			i++
		case 'v':
			out = append(out, '\v')
			i++
		case 'c':
			if i+2 < len(s) {
				x := s[i+2]
				if x >= 'a' && x <= 'z' {
					x -= 'a' - 'A'
				}
				out = append(out, x^0x40)
				i += 2
			} else {
				// a lone \c at the end stays as it is
				out = append(out, '\\')
			}
		case 'd', 'o', 'x':
			base, maxDigits := 10, 3
			if e == 'o' {
				base = 8
			} else if e == 'x' {
				base, maxDigits = 16, 2
			}
			j := i + 2
			n := 0
			for j < len(s) && j-(i+2) < maxDigits {
				d, ok := digitVal(s[j], base)
				if !ok {
					break
				}
				n = n*base + d
				j++
			}
			if j == i+2 {
				// no digits: the letter itself
				if typ == textBuffer {
					out = append(out, e)
				} else {
					out = append(out, '\\', e)
				}
				i++
				continue
			}
			ch := byte(n)
			if typ == textReplacement && (ch == '&' || ch == '\\') {
				out = append(out, '\\')
			}
			out = append(out, ch)
			i = j - 1
		default:
			if typ == textBuffer {
				out = append(out, e)
			} else {
				out = append(out, '\\', e)
			}
			i++
		}
	}
	return out
}

func digitVal(c byte, base int) (int, bool) {
	d := printf.DigitVal(c)
	return d, d >= 0 && d < base
}

// appendList formats b as the l command does: C escapes, octal for other
// non-printable bytes, lines folded at width-1 characters plus a
// backslash (width 0: no folding), a $ at the end.
func appendList(out []byte, b []byte, width int, delim byte) []byte {
	col := 0
	var tmp [4]byte
	for _, c := range b {
		o := tmp[:0]
		switch {
		case c == '\\':
			o = append(o, '\\', '\\')
		case c >= 0x20 && c < 0x7f:
			o = append(o, c)
		default:
			o = append(o, '\\')
			if l, ok := printf.LetterOf(c); ok {
				o = append(o, l)
			} else {
				o = append(o, '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
			}
		}
		if width > 0 && col+len(o) > width-1 {
			out = append(out, '\\', delim)
			col = 0
		}
		out = append(out, o...)
		col += len(o)
	}
	return append(out, '$', delim)
}

// atoi converts a leading decimal number as C's atoi does (0 when there
// is none).
func atoi(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(s[i:j])
	if err != nil {
		if j > i {
			n = 1 << 31
		} else {
			n = 0
		}
	}
	if neg {
		n = -n
	}
	return n
}
