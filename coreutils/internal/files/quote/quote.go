// Package quote renders file names the way GNU coreutils' quotearg does,
// for the quoting styles ls, stat and the error messages of the file
// commands use, and measures their display width.
package quote

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Style is a GNU quoting style.
type Style int

const (
	Literal Style = iota
	Shell
	ShellAlways
	ShellEscape
	ShellEscapeAlways
	C
	Escape
	Locale
	CLocale
)

// Styles maps the --quoting-style names to styles, in GNU's order.
var Styles = []struct {
	Name  string
	Style Style
}{
	{"literal", Literal}, {"shell", Shell}, {"shell-always", ShellAlways},
	{"shell-escape", ShellEscape}, {"shell-escape-always", ShellEscapeAlways},
	{"c", C}, {"escape", Escape}, {"locale", Locale}, {"clocale", CLocale},
}

// ParseStyle finds a style by its exact name.
func ParseStyle(name string) (Style, bool) {
	for _, s := range Styles {
		if s.Name == name {
			return s.Style, true
		}
	}
	return Literal, false
}

// AF quotes a file name for an error message, as GNU's quoteaf does:
// always quoted, shell-escape style ('x', "a'b", 'a'$'\n”b').
func AF(s string) string { return Quote(s, ShellEscapeAlways) }

// Quote renders s in style.
func Quote(s string, style Style) string {
	switch style {
	case Literal:
		return s
	case Shell, ShellAlways, ShellEscape, ShellEscapeAlways:
		return shellQuote(s, style)
	case C:
		return `"` + cEscape(s, true) + `"`
	case Escape:
		return cEscape(s, false)
	case Locale, CLocale:
		return LocaleQuote(s, style, true)
	}
	return s
}

// LocaleQuote is the locale and clocale styles: ‘x’ in a UTF-8 locale,
// else 'x' (locale) or "x" (clocale).
func LocaleQuote(s string, style Style, utf8Locale bool) string {
	switch {
	case utf8Locale:
		return "\u2018" + localeEscape(s, '\'') + "\u2019"
	case style == CLocale:
		return `"` + cEscape(s, true) + `"`
	}
	return "'" + localeEscape(s, '\'') + "'"
}

// HideControl replaces each non-printable character with '?', as ls -q.
func HideControl(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !printable(r, n) {
			b.WriteByte('?')
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII only.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// printable reports whether a decoded rune (n bytes; RuneError with n==1
// is an invalid byte) prints, as glibc's iswprint says in a UTF-8 locale.
func printable(r rune, n int) bool {
	if r == utf8.RuneError && n <= 1 {
		return false
	}
	if r < 0x80 {
		return r >= 0x20 && r < 0x7f
	}
	if unicode.IsControl(r) {
		return false
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.Cf, unicode.Co)
}

// shellSpecial reports whether byte c at index i of s needs shell quoting.
func shellSpecial(s string, i int) bool {
	switch c := s[i]; c {
	case ' ', '!', '"', '$', '&', '\'', '(', ')', '*', ';', '<', '=', '>', '?', '[', '\\', '^', '`', '|', '\t', '\n':
		return true
	case '#', '~':
		return i == 0
	case '{', '}':
		return len(s) == 1
	}
	return false
}

// compat reports whether byte c at index i may appear between double
// quotes unchanged and needs no C escape.
func compat(s string, i int) bool {
	c := s[i]
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	switch c {
	case '%', '+', ',', '-', '.', '/', ':', ']', '_', ' ', '\'', '@':
		return true
	case '#', '~':
		return i == 0
	case '{', '}':
		return len(s) == 1
	}
	return c >= 0x80
}

func shellQuote(s string, style Style) string {
	always := style == ShellAlways || style == ShellEscapeAlways
	escapes := style == ShellEscape || style == ShellEscapeAlways
	if s == "" {
		return "''"
	}
	need, hasQuote, allCompat, hasNonPrint := false, false, true, false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !printable(r, n) {
			allCompat = false
			if escapes {
				need, hasNonPrint = true, true
			} else if n == 1 && shellSpecial(s, i) {
				need = true
			}
			i += n
			continue
		}
		if n == 1 {
			if shellSpecial(s, i) {
				need = true
			}
			if s[i] == '\'' {
				hasQuote = true
			}
			if !compat(s, i) {
				allCompat = false
			}
		}
		i += n
	}
	if !need && !always {
		return s
	}
	if hasQuote && allCompat && !hasNonPrint {
		return `"` + s + `"`
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteByte('\'')
	inEsc := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if escapes && !printable(r, n) {
			if !inEsc {
				b.WriteString("'$'")
				inEsc = true
			}
			for k := 0; k < n; k++ {
				writeCEscape(&b, s[i+k])
			}
			i += n
			continue
		}
		if inEsc {
			b.WriteString("''")
			inEsc = false
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

// cEscape is the body of the c (quoted) and escape (unquoted) styles.
func cEscape(s string, quoted bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !printable(r, n) {
			for k := 0; k < n; k++ {
				writeCEscape(&b, s[i+k])
			}
			i += n
			continue
		}
		switch c := s[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '"' && quoted:
			b.WriteString(`\"`)
		case c == ' ' && !quoted:
			b.WriteString(`\ `)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func localeEscape(s string, q byte) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !printable(r, n) {
			for k := 0; k < n; k++ {
				writeCEscape(&b, s[i+k])
			}
			i += n
			continue
		}
		if s[i] == '\\' {
			b.WriteString(`\\`)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Width is the number of terminal columns s takes, as mbswidth counts in
// a UTF-8 locale: control characters count 0, other non-printable
// characters and invalid bytes 1.
func Width(s string) int {
	if isPlain(s) {
		return len(s)
	}
	w := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		w += RuneWidth(r, n)
	}
	return w
}

// RuneWidth is the display width of one decoded rune.
func RuneWidth(r rune, n int) int {
	if r < 0x20 || r == 0x7f {
		return 0
	}
	if r < 0x80 {
		return 1
	}
	if !printable(r, n) {
		if n > 1 && unicode.IsControl(r) {
			return 0
		}
		return 1
	}
	if unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || (r >= 0x1160 && r <= 0x11ff) {
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// UTF8Locale reports whether the locale the environment selects (LC_ALL,
// else LC_CTYPE, else LANG) uses UTF-8.
func UTF8Locale(getenv func(string) string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// Q quotes s as GNU's quote() does in messages: ‘s’ in a UTF-8 locale,
// 's' otherwise, with non-printable characters escaped.
func Q(s string, utf8Locale bool) string {
	if utf8Locale {
		return "\u2018" + localeEscape(s, '\'') + "\u2019"
	}
	return "'" + localeEscape(s, '\'') + "'"
}
