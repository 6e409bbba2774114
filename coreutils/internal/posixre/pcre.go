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
	expr, hasK := translatePCRE(pattern)
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
		return nil, &Error{pcreMessage(err.Error())}
	}
	re := &Regexp{expr: pattern, netRE: n}
	if hasK {
		re.kGroup = n.GroupNumberFromName(keepGroup)
	}
	for _, g := range n.GetGroupNumbers() {
		if g > re.nsub && g != re.kGroup {
			re.nsub = g
		}
	}
	return re, nil
}

// keepGroup names the empty group that marks \K (keep: the match
// reported starts there).
const keepGroup = "bashboxKeep"

// pcreMessage turns a regexp2 error into PCRE2's wording.
func pcreMessage(msg string) string {
	msg = strings.TrimPrefix(msg, "error parsing regexp: ")
	if i := strings.LastIndex(msg, " in `"); i >= 0 {
		msg = msg[:i]
	}
	for _, m := range []struct{ from, to string }{
		{"missing closing )", "missing closing parenthesis"},
		{"unexpected )", "unmatched closing parenthesis"},
		{"unterminated [] set", "missing terminating ] for character class"},
		{"invalid repeat count", "numbers out of order in {} quantifier"},
		{"missing argument to repetition operator", "quantifier does not follow a repeatable item"},
		{"illegal \\ at end of pattern", "\\ at end of pattern"},
		{"reference to undefined group", "reference to non-existent subpattern"},
		{"invalid nested repetition operator", "quantifier does not follow a repeatable item"},
	} {
		if strings.HasPrefix(msg, m.from) {
			return m.to
		}
	}
	return msg
}

const (
	asciiWord        = `0-9A-Za-z_`
	asciiSpace       = `\t\n\x0b\f\r `
	asciiBoundary    = `(?:(?<=[` + asciiWord + `])(?![` + asciiWord + `])|(?<![` + asciiWord + `])(?=[` + asciiWord + `]))`
	asciiNonBoundary = `(?:(?<=[` + asciiWord + `])(?=[` + asciiWord + `])|(?<![` + asciiWord + `])(?![` + asciiWord + `]))`
)

// translatePCRE rewrites the Perl constructs whose .NET meaning differs.
// It reports whether the pattern uses \K.
func translatePCRE(p string) (string, bool) {
	hasK := false
	var b strings.Builder
	inClass := false
	lastAtom := -1  // output position where the last atom starts
	var opens []int // output positions of the open groups
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !inClass {
			// a quantifier followed by + is possessive: (?>atom quantifier)
			if q := quantifierLen(p[i:]); q > 0 && lastAtom >= 0 {
				if i+q < len(p) && p[i+q] == '+' {
					out := b.String()
					b.Reset()
					b.WriteString(out[:lastAtom])
					b.WriteString("(?>")
					b.WriteString(out[lastAtom:])
					b.WriteString(p[i : i+q])
					b.WriteString(")")
					i += q
					continue
				}
				b.WriteString(p[i : i+q])
				i += q - 1
				if i+1 < len(p) && p[i+1] == '?' {
					b.WriteByte('?')
					i++
				}
				continue
			}
			lastAtom = b.Len()
		}
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
		if c == '(' && !inClass {
			opens = append(opens, b.Len())
			if strings.HasPrefix(p[i:], "(?P<") {
				b.WriteString("(?<")
				i += 3
				continue
			}
		}
		if c == ')' && !inClass && len(opens) > 0 {
			lastAtom = opens[len(opens)-1]
			opens = opens[:len(opens)-1]
		}
		if c == '|' && !inClass {
			lastAtom = -1
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
		case 'K':
			if inClass {
				b.WriteString(`K`)
			} else {
				b.WriteString(`(?<` + keepGroup + `>)`)
				hasK = true
			}
		case 'E':
			// a stray \E is ignored
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), hasK
}

// quantifierLen returns the length of a quantifier (* + ? {n} {n,} {n,m})
// at the start of s, or 0.
func quantifierLen(s string) int {
	switch s[0] {
	case '*', '+', '?':
		return 1
	case '{':
		i := 1
		digits := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
		if i < len(s) && s[i] == ',' {
			i++
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		}
		if digits > 0 && i < len(s) && s[i] == '}' {
			return i + 1
		}
	}
	return 0
}
