// Package fileops holds what the file-operation commands (cp, mv, rm,
// mkdir, ln, install, realpath...) share: GNU's quoting of file names in
// messages, mode parsing, path canonicalization, prompts and the copy
// engine.
package fileops

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
)

// Quoter quotes file names the way GNU coreutils does in its messages.
type Quoter struct {
	UTF8 bool // the locale's character set is UTF-8
}

// NewQuoter reads the call's locale (LC_ALL, LC_CTYPE, LANG).
func NewQuoter(c *builtins.Call) Quoter {
	return Quoter{UTF8: IsUTF8Locale(c)}
}

// IsUTF8Locale reports whether the call's character set is UTF-8.
func IsUTF8Locale(c *builtins.Call) bool {
	loc := ""
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := c.Getenv(k); v != "" {
			loc = v
			break
		}
	}
	l := strings.ToLower(loc)
	return strings.Contains(l, "utf-8") || strings.Contains(l, "utf8")
}

// shellCompat reports the ASCII characters that may appear inside double
// quotes unchanged in both C and shell syntax (gnulib's
// c_and_shell_quote_compat).
func shellCompat(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	}
	switch b {
	case ' ', '%', '+', ',', '-', '.', '/', ':', '@', ']', '_', '\'':
		return true
	}
	return false
}

// next returns the character at s[i:]: its length and whether it prints
// in the locale.
func (q Quoter) next(s string, i int) (int, bool) {
	b := s[i]
	if b < utf8.RuneSelf {
		return 1, b >= 0x20 && b < 0x7f
	}
	if !q.UTF8 {
		return 1, false
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		return 1, false
	}
	return n, unicode.IsPrint(r)
}

// AF quotes like gnulib's quoteaf (shell-escape-always style): 'a b',
// "c'd", 'e'$'\n”f'.
func (q Quoter) AF(s string) string {
	// A single quote with only harmless characters: use double quotes.
	if strings.IndexByte(s, '\'') >= 0 {
		compat := true
		for i := 0; i < len(s); {
			n, printable := q.next(s, i)
			if n == 1 && !shellCompat(s[i]) || n > 1 && !printable {
				compat = false
				break
			}
			i += n
		}
		if compat {
			return `"` + s + `"`
		}
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	inEscape := false
	for i := 0; i < len(s); {
		n, printable := q.next(s, i)
		if !printable {
			if !inEscape {
				b.WriteString(`'$'`)
				inEscape = true
			}
			for j := 0; j < n; j++ {
				writeCEscape(&b, s[i+j])
			}
			i += n
			continue
		}
		if inEscape {
			b.WriteString(`''`)
			inEscape = false
		}
		if s[i] == '\'' {
			b.WriteString(`'\''`)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

func writeCEscape(b *strings.Builder, c byte) {
	switch c {
	case '\a':
		b.WriteString(`\a`)
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	case '\v':
		b.WriteString(`\v`)
	default:
		b.WriteByte('\\')
		b.WriteByte('0' + c>>6)
		b.WriteByte('0' + c>>3&7)
		b.WriteByte('0' + c&7)
	}
}

// Q quotes like gnulib's quote (locale style): ‘x’ in a UTF-8 locale, 'x'
// otherwise, with C escapes for unprintable characters.
func (q Quoter) Q(s string) string {
	open, close := "'", "'"
	if q.UTF8 {
		open, close = "\u2018", "\u2019"
	}
	var b strings.Builder
	b.Grow(len(s) + 6)
	b.WriteString(open)
	for i := 0; i < len(s); {
		n, printable := q.next(s, i)
		switch {
		case !printable:
			for j := 0; j < n; j++ {
				writeCEscape(&b, s[i+j])
			}
		case s[i] == '\\':
			b.WriteString(`\\`)
		case s[i] == '\'' && !q.UTF8:
			b.WriteString(`\'`)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteString(close)
	return b.String()
}

// F quotes like gnulib's quotef: as AF, but only when the name needs it
// (colons count as needing it).
func (q Quoter) F(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); {
		n, printable := q.next(s, i)
		if !printable {
			return q.AF(s)
		}
		if n == 1 {
			b := s[i]
			switch {
			case b == '#' || b == '~':
				if i == 0 {
					return q.AF(s)
				}
			case b == '{' || b == '}':
				if len(s) == 1 {
					return q.AF(s)
				}
			case b == ':' || b == ' ' || b == '\'' || !shellCompat(b):
				return q.AF(s)
			}
		}
		i += n
	}
	return s
}
