// Package wcwidth is the character classification and display width of
// glibc's C.UTF-8 locale (wcwidth, iswprint, iswspace), from a table made
// from the C library itself, for every command that lines text up.
package wcwidth

// wctable.go is generated from the C library; see gen_wctable.go.
//go:generate go run gen_wctable.go

// IsWSpace is glibc's iswspace in a UTF-8 locale: the ASCII white space
// characters and the Unicode spaces except the no-break ones.
func IsWSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x1680, 0x2028, 0x2029, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a && r != 0x2007
}

// wcClass looks r up in the glibc table.
func wcClass(r rune) uint8 {
	if r < 0x7f {
		if r >= 0x20 {
			return wcOne
		}
		return wcNonPrint
	}
	if r >= 0xd800 && r <= 0xdfff || r > 0x10ffff {
		return wcNonPrint
	}
	lo, hi := 0, len(wcTable)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < wcTable[m].lo:
			hi = m
		case r > wcTable[m].hi:
			lo = m + 1
		default:
			return wcTable[m].class
		}
	}
	return wcOne
}

// IsWPrint is glibc's iswprint in the C.UTF-8 locale.
func IsWPrint(r rune) bool { return wcClass(r) != wcNonPrint }

// RuneWidth is glibc's wcwidth in the C.UTF-8 locale: -1 for
// non-printable characters, 0 for combining and format characters, 2 for
// wide East Asian characters.
func RuneWidth(r rune) int {
	if r == 0 {
		return 0
	}
	switch wcClass(r) {
	case wcNonPrint:
		return -1
	case wcZero:
		return 0
	case wcTwo:
		return 2
	}
	return 1
}

// Character classes in wcTable (wctable.go, which gen_wctable.go
// writes).
const (
	wcNonPrint = iota // iswprint false
	wcZero            // printable, zero columns
	wcOne             // printable, one column
	wcTwo             // printable, two columns
)

type wcRange struct {
	lo, hi rune
	class  uint8
}
