package textfmt

import (
	"errors"
	"regexp"
	"strings"

	"github.com/bashbox/bashbox/internal/lazy"
)

// Syntax selects the GNU regex dialect a pattern is written in.
type Syntax int

const (
	// BRE is POSIX basic syntax with GNU extensions (\+ \? \| \{m,n\}),
	// as nl -p uses.
	BRE Syntax = iota
	// Emacs is GNU regex's default syntax (re_syntax_options == 0), as
	// tac -r uses: + and ? are operators, \| alternates, \( \) group,
	// no intervals and no character classes.
	Emacs
)

// Regex compile errors, worded as GNU regex words them.
var (
	ErrUnmatchedParen   = errors.New("Unmatched ( or \\(")
	ErrUnmatchedRParen  = errors.New("Unmatched ) or \\)")
	ErrUnmatchedBracket = errors.New("Unmatched [, [^, [:, [., or [=")
	ErrUnmatchedBrace   = errors.New("Unmatched \\{")
	ErrBadBrace         = errors.New("Invalid content of \\{\\}")
	ErrTrailingBS       = errors.New("Trailing backslash")
	ErrBadBackref       = errors.New("Invalid back reference")
	ErrBadClass         = errors.New("Invalid character class name")
	ErrBadRange         = errors.New("Invalid range end")
)

// CompileRegex translates a GNU pattern into Go syntax and compiles it
// with leftmost-longest semantics; ^ and $ also match at newlines, as
// re_compile_pattern sets newline_anchor.
func CompileRegex(pat string, syn Syntax) (*regexp.Regexp, error) {
	goPat, err := translate(pat, syn)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile("(?m)" + goPat)
	if err != nil {
		return nil, errors.New("Invalid regular expression")
	}
	re.Longest()
	return re, nil
}

func translate(p string, syn Syntax) (string, error) {
	var b strings.Builder
	depth := 0
	// atStart: position where * is literal and ^ is an anchor.
	atStart := true
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch ch {
		case '\\':
			if i+1 >= len(p) {
				return "", ErrTrailingBS
			}
			i++
			e := p[i]
			switch e {
			case '(':
				depth++
				b.WriteString("(")
				atStart = true
				continue
			case ')':
				if depth == 0 {
					return "", ErrUnmatchedRParen
				}
				depth--
				b.WriteString(")")
			case '|':
				b.WriteString("|")
				atStart = true
				continue
			case '{':
				if syn == Emacs {
					b.WriteString(`\{`)
					break
				}
				end := strings.Index(p[i:], `\}`)
				if end < 0 {
					return "", ErrUnmatchedBrace
				}
				body := p[i+1 : i+end]
				if !validInterval(body) {
					return "", ErrBadBrace
				}
				if atStart {
					b.WriteString(`\{` + body + `\}`)
				} else {
					b.WriteString("{" + body + "}")
				}
				i += end + 1
			case '}':
				b.WriteString(`\}`)
			case '+', '?':
				if syn == Emacs || atStart {
					b.WriteString(`\` + string(e))
				} else {
					b.WriteByte(e)
				}
			case '<', '>', 'b':
				b.WriteString(`\b`)
			case 'B':
				b.WriteString(`\B`)
			case 'w':
				b.WriteString(`[0-9A-Za-z_]`)
			case 'W':
				b.WriteString(`[^0-9A-Za-z_]`)
			case 's':
				b.WriteString(`\s`)
			case 'S':
				b.WriteString(`\S`)
			case '`':
				b.WriteString(`\A`)
			case '\'':
				b.WriteString(`\z`)
			case 'n':
				b.WriteString(`\n`)
			default:
				if e >= '1' && e <= '9' {
					return "", ErrBadBackref
				}
				b.WriteString(regexp.QuoteMeta(string(e)))
			}
			atStart = false
		case '[':
			j, cls, err := bracket(p, i, syn)
			if err != nil {
				return "", err
			}
			b.WriteString(cls)
			i = j
			atStart = false
		case '*':
			if atStart {
				b.WriteString(`\*`)
			} else {
				b.WriteByte('*')
			}
		case '+', '?':
			if syn == Emacs && !atStart {
				b.WriteByte(ch)
			} else {
				b.WriteString(`\` + string(ch))
			}
		case '^':
			if atStart || syn == Emacs && i == 0 {
				b.WriteByte('^')
				continue
			}
			b.WriteString(`\^`)
		case '$':
			if i == len(p)-1 || strings.HasPrefix(p[i+1:], `\)`) || strings.HasPrefix(p[i+1:], `\|`) {
				b.WriteByte('$')
			} else {
				b.WriteString(`\$`)
			}
			atStart = false
		case '.':
			b.WriteString(`(?s:.)`)
			atStart = false
		default:
			b.WriteString(regexp.QuoteMeta(string(ch)))
			atStart = false
		}
	}
	if depth > 0 {
		return "", ErrUnmatchedParen
	}
	return b.String(), nil
}

func validInterval(body string) bool {
	lo, hi, comma := strings.Cut(body, ",")
	digits := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	if !digits(lo) || !digits(hi) || (lo == "" && !comma) {
		return false
	}
	return true
}

var classNames = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true,
		"space": true, "blank": true, "punct": true, "print": true, "graph": true,
		"cntrl": true, "xdigit": true,
	}
}}

// bracket translates the bracket expression starting at p[i] == '['. It
// returns the index of its closing ']'.
func bracket(p string, i int, syn Syntax) (int, string, error) {
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(p) && p[j] == '^' {
		b.WriteByte('^')
		j++
	}
	first := true
	for ; j < len(p); j++ {
		ch := p[j]
		if ch == ']' && !first {
			b.WriteByte(']')
			return j, b.String(), nil
		}
		first = false
		if ch == '[' && syn == BRE && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '=' || p[j+1] == '.') {
			kind := p[j+1]
			end := strings.Index(p[j+2:], string(kind)+"]")
			if end < 0 {
				return 0, "", ErrUnmatchedBracket
			}
			name := p[j+2 : j+2+end]
			if kind == ':' {
				if !classNames.Get()[name] {
					return 0, "", ErrBadClass
				}
				b.WriteString("[:" + name + ":]")
			} else {
				for k := 0; k < len(name); k++ {
					b.WriteString(quoteClassByte(name[k]))
				}
			}
			j += 2 + end + 1
			continue
		}
		if ch == '-' && j+1 < len(p) && p[j+1] != ']' && b.Len() > 1 {
			b.WriteByte('-')
			continue
		}
		b.WriteString(quoteClassByte(ch))
	}
	return 0, "", ErrUnmatchedBracket
}

func quoteClassByte(ch byte) string {
	if ch >= 0x80 {
		return string([]byte{ch})
	}
	if ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' {
		return string(ch)
	}
	if ch < 0x20 || ch == 0x7f {
		return `\x` + string("0123456789abcdef"[ch>>4]) + string("0123456789abcdef"[ch&15])
	}
	return `\` + string(ch)
}
