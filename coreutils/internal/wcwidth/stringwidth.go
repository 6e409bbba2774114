package wcwidth

import (
	"unicode/utf8"
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
		if x := RuneWidth(r); x > 0 {
			w += x
		}
	}
	return w
}
