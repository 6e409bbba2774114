package posixre

import (
	"strings"

	"github.com/dlclark/regexp2"
)

// compilePCRE compiles a Perl-compatible pattern (grep -P) on regexp2.
// grep 3.8 runs PCRE2 without Unicode properties, so \d \w \s and \b are
// ASCII; they are rewritten to explicit ASCII classes here since .NET's
// are Unicode. \Q...\E, \h and (?P<name> are translated too.
func compilePCRE(pattern string, fl Flags, lo ListOptions) (*Regexp, error) {
	expr := translatePCRE(pattern)
	switch {
	case lo.Line:
		expr = `^(?:` + expr + `)$`
	case lo.Word:
		expr = `(?<![0-9A-Za-z_])(?:` + expr + `)(?![0-9A-Za-z_])`
	}
	opts := regexp2.RegexOptions(0)
	if fl.IgnoreCase {
		opts |= regexp2.IgnoreCase
	}
	if fl.Multiline {
		opts |= regexp2.Multiline
	}
	n, err := regexp2.Compile(expr, opts)
	if err != nil {
		msg := err.Error()
		if i := strings.LastIndex(msg, " - "); i >= 0 {
			msg = msg[i+3:]
		}
		msg = strings.TrimPrefix(msg, "error parsing regexp: ")
		return nil, &Error{msg}
	}
	re := &Regexp{expr: pattern, netRE: n}
	for _, g := range n.GetGroupNumbers() {
		if g > re.nsub {
			re.nsub = g
		}
	}
	return re, nil
}

const (
	asciiWord        = `0-9A-Za-z_`
	asciiSpace       = `\t\n\x0b\f\r `
	asciiBoundary    = `(?:(?<=[` + asciiWord + `])(?![` + asciiWord + `])|(?<![` + asciiWord + `])(?=[` + asciiWord + `]))`
	asciiNonBoundary = `(?:(?<=[` + asciiWord + `])(?=[` + asciiWord + `])|(?<![` + asciiWord + `])(?![` + asciiWord + `]))`
)

// translatePCRE rewrites the Perl constructs whose .NET meaning differs.
func translatePCRE(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '[' && !inClass {
			inClass = true
			b.WriteByte(c)
			// a ] right after [ or [^ is literal
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				b.WriteString(`\]`)
				i++
			}
			continue
		}
		if c == ']' && inClass {
			inClass = false
			b.WriteByte(c)
			continue
		}
		if c == '(' && !inClass && strings.HasPrefix(p[i:], "(?P<") {
			b.WriteString("(?<")
			i += 3
			continue
		}
		if c != '\\' || i+1 >= len(p) {
			b.WriteByte(c)
			continue
		}
		e := p[i+1]
		i++
		switch e {
		case 'd':
			if inClass {
				b.WriteString(`0-9`)
			} else {
				b.WriteString(`[0-9]`)
			}
		case 'D':
			if inClass {
				b.WriteString(`\D`)
			} else {
				b.WriteString(`[^0-9]`)
			}
		case 'w':
			if inClass {
				b.WriteString(asciiWord)
			} else {
				b.WriteString(`[` + asciiWord + `]`)
			}
		case 'W':
			if inClass {
				b.WriteString(`\W`)
			} else {
				b.WriteString(`[^` + asciiWord + `]`)
			}
		case 's':
			if inClass {
				b.WriteString(asciiSpace)
			} else {
				b.WriteString(`[` + asciiSpace + `]`)
			}
		case 'S':
			if inClass {
				b.WriteString(`\S`)
			} else {
				b.WriteString(`[^` + asciiSpace + `]`)
			}
		case 'h':
			if inClass {
				b.WriteString(`\t `)
			} else {
				b.WriteString(`[\t ]`)
			}
		case 'b':
			if inClass {
				b.WriteString(`\b`)
			} else {
				b.WriteString(asciiBoundary)
			}
		case 'B':
			b.WriteString(asciiNonBoundary)
		case 'Q':
			end := strings.Index(p[i+1:], `\E`)
			lit := p[i+1:]
			if end >= 0 {
				lit = p[i+1 : i+1+end]
				i += end + 2
			} else {
				i = len(p)
			}
			b.WriteString(regexp2.Escape(lit))
		case 'E':
			// a stray \E is ignored
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}
