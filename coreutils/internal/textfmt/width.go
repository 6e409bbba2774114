package textfmt

import (
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// StringWidth adds up the widths of the printable characters of s
// (control characters and invalid bytes count zero).
func StringWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c < 0x7f {
				w++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			continue
		}
		if x := quote.WCWidth(r); x > 0 {
			w += x
		}
	}
	return w
}
