// Package quote renders strings the way gnulib's quotearg does for the GNU
// tools: the --quoting-style styles of ls and stat, quoteaf and quotef for
// file names in diagnostics, quote() for other arguments, all in a UTF-8
// or the C locale; and it measures display width as mbswidth does.
package quote

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/internal/wcwidth"

	"github.com/bashbox/bashbox/builtins"
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

// Quoter quotes in a locale: UTF-8, or the C locale, where every byte
// above 0x7f is unprintable.
type Quoter struct {
	UTF8 bool
}

// UTF8 is the quoter of a UTF-8 locale, for code without a call at hand.
var UTF8 = Quoter{UTF8: true}

// New returns the quoter for the call's locale.
func New(c *builtins.Call) Quoter { return Quoter{UTF8: UTF8Locale(c.Getenv)} }

// Quote renders s in style, as quotearg does with no extra characters to
// quote.
func (q Quoter) Quote(s string, style Style) string { return q.QuoteAlso(s, style, "") }

// QuoteAlso is Quote with the bytes of also quoted too (gnulib's
// set_char_quoting): ls -b escapes spaces that way.
func (q Quoter) QuoteAlso(s string, style Style, also string) string {
	var set *byteSet
	if also != "" {
		set = new(byteSet)
		for i := 0; i < len(also); i++ {
			set[also[i]>>6] |= 1 << (also[i] & 63)
		}
	}
	return q.restyle(s, style, set)
}

// AF quotes a file name for a diagnostic as quoteaf does: always, in the
// shell-escape style ('x', "a'b", 'a'$'\n”b').
func (q Quoter) AF(s string) string { return q.restyle(s, ShellEscapeAlways, nil) }

// F quotes a file name as quotef does: in the shell-escape style, only
// when it needs it, a colon counting as needing it.
func (q Quoter) F(s string) string { return q.QuoteAlso(s, ShellEscape, ":") }

// Q quotes an argument as quote() does: ‘x’ in a UTF-8 locale, 'x'
// otherwise, with unprintable characters escaped.
func (q Quoter) Q(s string) string { return q.restyle(s, Locale, nil) }

// byteSet holds the extra bytes to quote.
type byteSet [4]uint64

func (b *byteSet) has(c byte) bool { return b != nil && b[c>>6]>>(c&63)&1 != 0 }

// quotes returns the left and right quotes of the locale styles.
func (q Quoter) quotes(style Style) (string, string) {
	switch {
	case q.UTF8:
		return "\u2018", "\u2019"
	case style == CLocale:
		return `"`, `"`
	}
	return "'", "'"
}

// restyle is quotearg's algorithm: one pass over s, which may end by
// asking for the outer quotes after all (a shell style that found a
// character the shell would take specially), or for C quotes (a string
// whose only trouble is an apostrophe).
func (q Quoter) restyle(s string, style Style, also *byteSet) string {
	p := pass{q: q, s: s, also: also}
	switch style {
	case C:
		p.left, p.right, p.backslash = `"`, `"`, true
	case Escape:
		p.backslash = true
	case Locale, CLocale:
		p.left, p.right = q.quotes(style)
		p.backslash = true
	case Shell, ShellEscape:
		p.shell, p.elide, p.backslash = true, true, style == ShellEscape
	case ShellAlways, ShellEscapeAlways:
		p.shell, p.backslash = true, style == ShellEscapeAlways
		p.left, p.right = "'", "'"
	}
	out, ok := p.run()
	if !ok {
		// The outer quotes are needed after all.
		forced := ShellAlways
		if style == ShellEscape {
			forced = ShellEscapeAlways
		}
		return q.restyle(s, forced, nil)
	}
	if p.shell && !p.elide && p.sawQuote {
		if p.allCompat {
			return q.restyle(s, C, also)
		}
		// gnulib writes again, keeping whether it was left inside $'...'.
		out, _ = p.run()
	}
	return out
}

// pass is the state of one quotearg pass.
type pass struct {
	q           Quoter
	s           string
	also        *byteSet
	left, right string
	backslash   bool // C-style backslash escapes
	shell       bool // a shell style: ' quoting, $'...' escapes
	elide       bool // leave out the outer quotes unless needed
	b           strings.Builder
	pending     bool // inside $'...'
	sawQuote    bool
	allCompat   bool // every character is fine in both C and shell double quotes
	escaping    bool // the current character is escaped
}

// run writes s; ok is false when the outer quotes must be added (only
// with elide).
func (p *pass) run() (out string, ok bool) {
	s := p.s
	p.b.Reset()
	p.b.Grow(len(s) + 2)
	p.allCompat = true
	if !p.elide {
		p.b.WriteString(p.left)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		p.escaping = false
		rightQuote, compat := false, false
		if p.backslash && !p.shell && p.right != "" && strings.HasPrefix(s[i:], p.right) {
			if p.elide {
				return "", false
			}
			rightQuote = true
		}
		var esc byte
		switch c {
		case 0:
			if p.backslash {
				if !p.startEsc() {
					return "", false
				}
				if !p.shell && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
					p.b.WriteString("00")
				}
				c = '0'
			}
			goto check
		case '?':
			if p.shell && p.elide {
				return "", false
			}
			goto check
		case '\a':
			esc = 'a'
		case '\b':
			esc = 'b'
		case '\f':
			esc = 'f'
		case '\v':
			esc = 'v'
		case '\n', '\r', '\t':
			esc = "nrt"[strings.IndexByte("\n\r\t", c)]
			if p.shell && p.elide {
				return "", false
			}
		case '\\':
			if p.shell {
				if p.elide {
					return "", false
				}
				goto store
			}
			esc = '\\'
		case '{', '}', '#', '~', ' ', '!', '"', '$', '&', '(', ')', '*', ';', '<', '=', '>', '[', '^', '`', '|':
			switch c {
			case '{', '}':
				compat = len(s) == 1
			case '#', '~':
				compat = i == 0
			case ' ':
				compat = true
			}
			if (compat || c != '{' && c != '}' && c != '#' && c != '~') && p.shell && p.elide {
				return "", false
			}
			goto check
		case '\'':
			p.sawQuote, compat = true, true
			if p.shell {
				if p.elide {
					return "", false
				}
				p.b.WriteString(`'\'`)
				p.pending = false
			}
			goto check
		case '%', '+', ',', '-', '.', '/', ':', ']', '_':
			compat = true
			goto check
		default:
			if c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
				compat = true
				goto check
			}
			m, printable := p.q.char(s, i)
			compat = printable
			if m > 1 || p.backslash && !printable {
				// Copy the sequence, or escape each of its bytes.
				end := i + m
				for {
					if p.backslash && !printable {
						if !p.startEsc() {
							return "", false
						}
						p.b.WriteByte('0' + c>>6)
						p.b.WriteByte('0' + c>>3&7)
						c = '0' + c&7
					} else if rightQuote {
						p.b.WriteByte('\\')
						rightQuote = false
					}
					if end <= i+1 {
						break
					}
					p.endEsc()
					p.b.WriteByte(c)
					i++
					c = s[i]
				}
				goto store
			}
			goto check
		}
		// A C escape: \n, \t, \\...
		if !p.backslash {
			goto check
		}
		c = esc
		goto escape
	check:
		if !(((p.backslash && !p.shell) || p.elide) && p.also.has(c)) && !rightQuote {
			goto store
		}
	escape:
		if !p.startEsc() {
			return "", false
		}
	store:
		p.endEsc()
		p.b.WriteByte(c)
		if !compat {
			p.allCompat = false
		}
	}
	if p.b.Len() == 0 && p.shell && p.elide {
		return "", false
	}
	if !p.elide {
		p.b.WriteString(p.right)
	}
	return p.b.String(), true
}

// startEsc begins a backslash escape; false means the outer quotes are
// needed first.
func (p *pass) startEsc() bool {
	if p.elide {
		return false
	}
	p.escaping = true
	if p.shell && !p.pending {
		p.b.WriteString("'$'")
		p.pending = true
	}
	p.b.WriteByte('\\')
	return true
}

// endEsc leaves a $'...' escape before an unescaped character.
func (p *pass) endEsc() {
	if p.pending && !p.escaping {
		p.b.WriteString("''")
		p.pending = false
	}
}

// char returns the length of the character at s[i] and whether it prints
// in the locale; an invalid byte is one unprintable character.
func (q Quoter) char(s string, i int) (int, bool) {
	if s[i] < utf8.RuneSelf || !q.UTF8 {
		return 1, s[i] >= 0x20 && s[i] < 0x7f
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return n, printable(r, n)
}

// HideControl replaces each unprintable character with '?', as ls -q.
func (q Quoter) HideControl(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		n, ok := q.char(s, i)
		if !ok {
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
	return wcwidth.IsWPrint(r)
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

// RuneWidth is the display width of one decoded rune (n bytes), as
// mbswidth counts it: control characters 0, other unprintable characters
// and invalid bytes 1, printable ones their WCWidth.
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
	return wcwidth.RuneWidth(r)
}

// CBody writes s as the inside of a C string literal, the way diff and git
// quote file names: \a \b \t \n \v \f \r \" and \\ by name, and the bytes
// octal selects as three octal digits.
func CBody(s string, octal func(c byte) bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; strings.IndexByte(cNamed, c) >= 0 || octal(c) {
			CByte(&b, c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// cNamed are the bytes C names with a letter, cLetters the letters.
const (
	cNamed   = "\a\b\t\n\v\f\r\"\\"
	cLetters = `abtnvfr"\`
)

// CByte appends c escaped as in a C string literal: by name when C has
// one for it, else as three octal digits.
func CByte(b *strings.Builder, c byte) {
	b.WriteByte('\\')
	if k := strings.IndexByte(cNamed, c); k >= 0 {
		b.WriteByte(cLetters[k])
		return
	}
	b.WriteByte('0' + c>>6)
	b.WriteByte('0' + c>>3&7)
	b.WriteByte('0' + c&7)
}
