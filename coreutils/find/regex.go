package find

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/internal/posixre"
	"github.com/dlclark/regexp2"
)

// regex types accepted by -regextype, in GNU's order of listing.
var regexTypes = []string{"findutils-default", "ed", "emacs", "gnu-awk", "grep", "posix-awk", "awk", "posix-basic", "posix-egrep", "egrep", "posix-extended", "posix-minimal-basic", "sed"}

// pathRegex matches a whole path, as find's -regex does.
type pathRegex struct {
	goRE  *regexp.Regexp
	netRE *regexp2.Regexp
	posix *posixre.Regexp
	// A match on a backtracking engine gives up after posixre.MatchLimit
	// (then it and every later match finds nothing): onLimit reports it
	// once, with the path it gave up on.
	limited  atomic.Bool
	reported bool
	onLimit  func(path string)
}

func (r *pathRegex) match(s string) bool {
	ok := false
	switch {
	case r.goRE != nil:
		ok = r.goRE.MatchString(s)
	case r.netRE != nil:
		var err error
		ok, err = r.netRE.MatchString(s)
		if err != nil {
			r.limited.Store(true)
		}
	default:
		loc := r.posix.FindIndex([]byte(s))
		ok = loc != nil && loc[0] == 0 && loc[1] == len(s)
	}
	if r.limited.Load() && !r.reported {
		r.reported = true
		if r.onLimit != nil {
			r.onLimit(s)
		}
	}
	return ok
}

type regexError struct{ msg string }

func (e *regexError) Error() string { return e.msg }

// compileRegex compiles pat in the named syntax for whole-path matching;
// its backtracking matches stop with ctx.
func compileRegex(ctx context.Context, pat, syntax string, fold bool) (*pathRegex, error) {
	switch syntax {
	case "posix-basic", "ed", "sed", "grep", "posix-minimal-basic":
		re, err := posixre.Compile(pat, posixre.BRE, posixre.Flags{IgnoreCase: fold})
		if err != nil {
			return nil, err
		}
		r := &pathRegex{posix: re}
		re.Bound(ctx, func() { r.limited.Store(true) })
		return r, nil
	case "posix-extended", "egrep", "posix-egrep", "awk", "posix-awk", "gnu-awk":
		re, err := posixre.Compile(pat, posixre.ERE, posixre.Flags{IgnoreCase: fold})
		if err != nil {
			return nil, err
		}
		r := &pathRegex{posix: re}
		re.Bound(ctx, func() { r.limited.Store(true) })
		return r, nil
	}
	expr, backrefs, err := translateEmacs(pat)
	if err != nil {
		return nil, err
	}
	prefix := ""
	if fold {
		prefix = "(?i)"
	}
	full := prefix + `\A(?:` + expr + `)\z`
	if backrefs {
		re, err := regexp2.Compile(full, regexp2.None)
		if err != nil {
			return nil, &regexError{"Invalid regular expression"}
		}
		re.MatchTimeout = posixre.MatchLimit
		return &pathRegex{netRE: re}, nil
	}
	re, err := regexp.Compile(full)
	if err != nil {
		return nil, &regexError{"Invalid regular expression"}
	}
	return &pathRegex{goRE: re}, nil
}

// quoteRune writes r so that both Go's regexp and regexp2 read it as
// itself, inside or outside brackets.
func quoteRune(b *strings.Builder, r rune) {
	if r < utf8.RuneSelf && strings.ContainsRune(`\.+*?()|[]{}^$-#&~ `, r) {
		b.WriteByte('\\')
		b.WriteRune(r)
		return
	}
	if r < 0x20 || r == 0x7f {
		b.WriteString(`\x`)
		if r < 0x10 {
			b.WriteByte('0')
		}
		b.WriteString(strconv.FormatInt(int64(r), 16))
		return
	}
	b.WriteRune(r)
}

// translateEmacs turns an Emacs-syntax regular expression (find's default
// type) into Go/regexp2 syntax: \( \) group, \| alternates, + ? * repeat
// (literal at the start of an expression), no intervals and no character
// classes in brackets, ^ and $ anchor only at the ends of an alternative,
// \w \W \s \S \b \B \< \> \` \' and back-references \1-\9.
func translateEmacs(p string) (string, bool, error) {
	var b strings.Builder
	backrefs := false
	var open []int // group numbers of the open groups
	closed := map[int]bool{}
	ngroups := 0
	atStart := true
	lastAtom := -1 // start of the last atom in b, -1 if none
	repeated := false
	for i := 0; i < len(p); {
		c := p[i]
		switch c {
		case '\\':
			if i+1 >= len(p) {
				return "", false, &regexError{"Trailing backslash"}
			}
			e := p[i+1]
			i += 2
			switch e {
			case '(':
				ngroups++
				open = append(open, ngroups)
				b.WriteByte('(')
				atStart, lastAtom, repeated = true, -1, false
				continue
			case ')':
				if len(open) == 0 {
					return "", false, &regexError{"Unmatched ) or \\)"}
				}
				closed[open[len(open)-1]] = true
				open = open[:len(open)-1]
				// the group is the last atom: find its opening paren
				b.WriteByte(')')
				lastAtom = groupStart(b.String())
				atStart, repeated = false, false
				continue
			case '|':
				b.WriteByte('|')
				atStart, lastAtom, repeated = true, -1, false
				continue
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				n := int(e - '0')
				if !closed[n] {
					return "", false, &regexError{"Invalid back reference"}
				}
				backrefs = true
				lastAtom = b.Len()
				b.WriteByte('\\')
				b.WriteByte(e)
			case 'w':
				lastAtom = b.Len()
				b.WriteString(`[_\p{L}\p{Nd}]`)
			case 'W':
				lastAtom = b.Len()
				b.WriteString(`[^_\p{L}\p{Nd}]`)
			case 's':
				lastAtom = b.Len()
				b.WriteString(`[\t\n\v\f\r ]`)
			case 'S':
				lastAtom = b.Len()
				b.WriteString(`[^\t\n\v\f\r ]`)
			case 'b', '<', '>':
				b.WriteString(`\b`)
				lastAtom = -1
			case 'B':
				b.WriteString(`\B`)
				lastAtom = -1
			case '`':
				b.WriteString(`\A`)
				lastAtom = -1
			case '\'':
				b.WriteString(`\z`)
				lastAtom = -1
			default:
				r, n := utf8.DecodeRuneInString(p[i-1:])
				i += n - 1
				lastAtom = b.Len()
				quoteRune(&b, r)
			}
			atStart, repeated = false, false
			continue
		case '*', '+', '?':
			if atStart {
				lastAtom = b.Len()
				quoteRune(&b, rune(c))
				atStart, repeated = false, false
				i++
				continue
			}
			if lastAtom < 0 {
				// after an anchor: nothing to repeat, GNU takes it as is
				lastAtom = b.Len()
				quoteRune(&b, rune(c))
				i++
				continue
			}
			if repeated {
				s := b.String()
				b.Reset()
				b.WriteString(s[:lastAtom])
				b.WriteString("(?:")
				b.WriteString(s[lastAtom:])
				b.WriteString(")")
			}
			b.WriteByte(c)
			repeated = true
			i++
			continue
		case '^':
			if atStart {
				b.WriteString(`^`)
				lastAtom = -1
				i++
				continue
			}
			lastAtom = b.Len()
			quoteRune(&b, '^')
		case '$':
			rest := p[i+1:]
			if rest == "" || strings.HasPrefix(rest, `\)`) || strings.HasPrefix(rest, `\|`) {
				b.WriteString(`$`)
				lastAtom = -1
				i++
				atStart = false
				continue
			}
			lastAtom = b.Len()
			quoteRune(&b, '$')
		case '.':
			lastAtom = b.Len()
			b.WriteByte('.')
		case '[':
			if i+1 >= len(p) {
				return "", false, &regexError{"Invalid regular expression"}
			}
			n, err := translateBracket(&b, p[i:], &lastAtom)
			if err != nil {
				return "", false, err
			}
			i += n
			atStart, repeated = false, false
			continue
		default:
			r, n := utf8.DecodeRuneInString(p[i:])
			lastAtom = b.Len()
			quoteRune(&b, r)
			i += n
			atStart, repeated = false, false
			continue
		}
		i++
		atStart, repeated = false, false
	}
	if len(open) > 0 {
		return "", false, &regexError{"Unmatched ( or \\("}
	}
	return b.String(), backrefs, nil
}

// groupStart finds the '(' matching the ')' that ends s.
func groupStart(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		if i > 0 && s[i-1] == '\\' && !escapedBackslash(s, i-1) {
			continue
		}
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return 0
}

// escapedBackslash reports whether the backslash at s[i] is itself
// escaped by an odd run of backslashes before it.
func escapedBackslash(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// translateBracket converts the bracket expression at the start of p. In
// Emacs syntax a backslash is literal inside brackets and there are no
// character classes.
func translateBracket(b *strings.Builder, p string, lastAtom *int) (int, error) {
	i := 1
	neg := false
	if i < len(p) && p[i] == '^' {
		neg = true
		i++
	}
	type item struct{ lo, hi rune }
	var items []item
	first := true
	for {
		if i >= len(p) {
			return 0, &regexError{"Unmatched [, [^, [:, [., or [="}
		}
		if p[i] == ']' && !first {
			i++
			break
		}
		first = false
		lo, n := utf8.DecodeRuneInString(p[i:])
		i += n
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			var m int
			hi, m = utf8.DecodeRuneInString(p[i+1:])
			i += 1 + m
			if hi < lo {
				return 0, &regexError{"Invalid range end"}
			}
		}
		items = append(items, item{lo, hi})
	}
	*lastAtom = b.Len()
	b.WriteByte('[')
	if neg {
		b.WriteByte('^')
	}
	for _, it := range items {
		quoteRune(b, it.lo)
		if it.hi != it.lo {
			b.WriteByte('-')
			quoteRune(b, it.hi)
		}
	}
	b.WriteByte(']')
	return i, nil
}
