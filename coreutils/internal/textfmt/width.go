package textfmt

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// RuneWidth is the number of columns a character takes on a terminal, as
// glibc's wcwidth reports it in a UTF-8 locale: -1 for control
// characters, 0 for combining marks, 2 for wide East Asian characters.
func RuneWidth(r rune) int {
	switch {
	case r == 0:
		return 0
	case r < 0x20 || r >= 0x7f && r < 0xa0:
		return -1
	case r < 0x7f:
		return 1
	case r == 0xad:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || r >= 0x1160 && r <= 0x11ff || r == 0x200b:
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

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
