package procutil

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ShellQuote quotes an argument for display the way GNU tools do with
// gnulib's shell-escape style (xargs -t, ls): left alone when the shell
// would take it as is, else in single quotes, with control characters as
// $'\t'-style escapes; an argument whose only problem is an apostrophe
// goes in double quotes. utf tells whether multibyte characters are
// printable (a UTF-8 locale).
func ShellQuote(s string, utf bool) string {
	if s == "" {
		return "''"
	}
	if !needsQuotes(s, utf) {
		return s
	}
	return ShellQuoteAlways(s, utf)
}

// ShellQuoteAlways is ShellQuote that quotes even an argument the shell
// would take as is (gnulib's shell-escape-always style, coreutils'
// quoteaf): '/tmp'.
func ShellQuoteAlways(s string, utf bool) string {
	if s == "" {
		return "''"
	}
	out, pending, sq, compat := quoteAlways(s, utf, false)
	if sq {
		if compat {
			return `"` + s + `"`
		}
		// gnulib redoes the quoting here without resetting its pending
		// $'...' state; reproduce its output.
		out, _, _, _ = quoteAlways(s, utf, pending)
	}
	return out
}

func isSafe(ch byte) bool {
	return ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' ||
		strings.IndexByte("%+,-./:]_", ch) >= 0
}

// needsQuotes reports whether s cannot be shown bare.
func needsQuotes(s string, utf bool) bool {
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case isSafe(ch):
		case ch == '#' || ch == '~':
			if i == 0 {
				return true
			}
		case ch == '{' || ch == '}':
			if len(s) == 1 {
				return true
			}
		case ch < 0x80:
			return true
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if !utf || r == utf8.RuneError && n <= 1 || !unicode.IsPrint(r) {
				return true
			}
			i += n
			continue
		}
		i++
	}
	return false
}

// quoteAlways renders s in single quotes. It reports whether it ended in
// the middle of a $'...' escape, whether s holds an apostrophe, and
// whether every character would be fine in double quotes.
func quoteAlways(s string, utf bool, pending bool) (string, bool, bool, bool) {
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteByte('\'')
	sq, allCompat := false, true
	endEsc := func() {
		if pending {
			b.WriteString("''")
			pending = false
		}
	}
	startEsc := func() {
		if !pending {
			b.WriteString("'$'")
			pending = true
		}
		b.WriteByte('\\')
	}
	for i := 0; i < len(s); {
		ch := s[i]
		compat := false
		switch {
		case isSafe(ch), ch == ' ':
			compat = true
			endEsc()
			b.WriteByte(ch)
		case ch == '#' || ch == '~':
			compat = i == 0
			endEsc()
			b.WriteByte(ch)
		case ch == '{' || ch == '}':
			compat = len(s) == 1
			endEsc()
			b.WriteByte(ch)
		case ch == '\'':
			compat, sq = true, true
			endEsc()
			b.WriteString(`'\''`)
		case ch == '\a' || ch == '\b' || ch == '\f' || ch == '\n' || ch == '\r' || ch == '\t' || ch == '\v':
			startEsc()
			b.WriteByte("abtnvfr"[strings.IndexByte("\a\b\t\n\v\f\r", ch)])
		case ch < 0x20 || ch == 0x7f:
			startEsc()
			writeOctal(&b, ch)
		case ch < 0x80:
			endEsc()
			b.WriteByte(ch)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if utf && !(r == utf8.RuneError && n <= 1) && unicode.IsPrint(r) {
				compat = true
				endEsc()
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
			if !utf || n <= 1 {
				n = 1
			}
			for j := 0; j < n; j++ {
				startEsc()
				writeOctal(&b, s[i+j])
			}
			i += n
			allCompat = false
			continue
		}
		if !compat {
			allCompat = false
		}
		i++
	}
	b.WriteByte('\'')
	return b.String(), pending, sq, allCompat
}

func writeOctal(b *strings.Builder, ch byte) {
	b.WriteByte('0' + ch>>6)
	b.WriteByte('0' + ch>>3&7)
	b.WriteByte('0' + ch&7)
}
