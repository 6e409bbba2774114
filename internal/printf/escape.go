package printf

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Where says which text an escape sequence stands in: printf's format,
// a %b argument, or an argument of echo -e. They differ in their octal
// form: \NNN in a format, \0NNN or \NNN in %b, \0NNN only for echo.
type Where int

const (
	InFormat Where = iota
	InArg
	InEcho
)

// Unescape decodes backslash escapes as bash does (its printf format and
// %b, and echo -e): in a format it decodes one escape at the start of s,
// elsewhere all of s. It returns the text, the bytes of s used and
// whether \c ended the output (never in a format, where bash prints \c as
// written). warn, when not nil, hears bash's printf warnings about \x and
// \u without digits.
func Unescape(s string, where Where, warn func(string)) (string, int, bool) {
	var b strings.Builder
	e := escaper{shell: true, where: where, out: &b, warn: warn}
	if where == InFormat {
		n, _ := e.one(s)
		return b.String(), n, false
	}
	stop, _ := e.all(s)
	return b.String(), len(s), stop
}

// escaper decodes the escapes of one dialect.
type escaper struct {
	shell bool // bash's escapes rather than GNU printf's
	where Where
	utf8  bool // GNU: \u writes UTF-8 (else the escape as written)
	out   interface {
		WriteByte(byte) error
		WriteString(string) (int, error)
		WriteRune(rune) (int, error)
	}
	warn func(string) // bash's warnings; nil for none
	// fail reports GNU's fatal escape errors.
	fail func(Message, string) error
}

// all decodes every escape of s; true means \c stopped the output.
func (e *escaper) all(s string) (bool, error) {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			e.out.WriteByte(s[i])
			continue
		}
		n, err := e.one(s[i:])
		if err == errStopped {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		i += n - 1
	}
	return false, nil
}

// errStopped is \c where it ends the output.
var errStopped = stopError("\\c")

type stopError string

func (e stopError) Error() string { return string(e) }

// one decodes the escape at s[0] == '\\' (or copies one byte) and returns
// the bytes it used.
func (e *escaper) one(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	if s[0] != '\\' || len(s) == 1 {
		e.out.WriteByte(s[0])
		return 1, nil
	}
	c := s[1]
	i := 2
	if b, ok := Letter(c); ok {
		e.out.WriteByte(b)
		return i, nil
	}
	switch c {
	case '\\', '"':
		e.out.WriteByte(c)
	case 'E', '\'':
		if !e.shell {
			e.out.WriteString(s[:2])
			break
		}
		if c == 'E' {
			e.out.WriteByte(0x1b)
		} else {
			e.out.WriteByte(c)
		}
	case 'c':
		if e.shell && e.where == InFormat {
			e.out.WriteString(`\c`)
			break
		}
		return i, errStopped
	case 'x':
		v, k := digits(s[i:], 16, 2)
		if k == 0 {
			if !e.shell {
				return i, e.fail(BadHexEscape, "")
			}
			e.warnf("missing hex digit for \\x")
			e.out.WriteString(`\x`)
			break
		}
		e.out.WriteByte(byte(v))
		i += k
	case 'u', 'U':
		return e.unicode(s, c)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		if e.where == InEcho && c != '0' {
			e.out.WriteString(s[:2])
			break
		}
		start := 1
		if e.where != InFormat && c == '0' {
			start = 2
		}
		v, k := digits(s[start:], 8, 3)
		e.out.WriteByte(byte(v))
		i = start + k
	default:
		e.out.WriteString(s[:2])
	}
	return i, nil
}

// unicode decodes \uHHHH or \UHHHHHHHH: bash takes up to that many
// digits, GNU exactly that many and checks the code point.
func (e *escaper) unicode(s string, kind byte) (int, error) {
	n := 4
	if kind == 'U' {
		n = 8
	}
	v, k := digits(s[2:], 16, n)
	if e.shell {
		if k == 0 {
			e.warnf("missing unicode digit for \\" + string(kind))
			e.out.WriteString(s[:2])
			return 2, nil
		}
		e.out.WriteRune(rune(v))
		return 2 + k, nil
	}
	if k < n {
		return 2 + k, e.fail(BadHexEscape, "")
	}
	if v <= 0x9f && v != 0x24 && v != 0x40 && v != 0x60 || v >= 0xd800 && v <= 0xdfff {
		return 2 + k, e.fail(BadUnicode, fmt.Sprintf("\\%c%0*x", kind, n, v))
	}
	switch {
	case e.utf8 && v <= utf8.MaxRune:
		e.out.WriteRune(rune(v))
	case v < 0x80:
		e.out.WriteByte(byte(v))
	default:
		// Not representable outside UTF-8: GNU prints the escape.
		e.out.WriteString(`\` + string(kind) + strings.ToUpper(strconv.FormatUint(uint64(v), 16)))
	}
	return 2 + k, nil
}

func (e *escaper) warnf(msg string) {
	if e.warn != nil {
		e.warn(msg)
	}
}

// digits reads up to max digits of base at the start of s: the value and
// how many it read.
func digits(s string, base, max int) (int, int) {
	n, k := 0, 0
	for k < len(s) && k < max {
		d := digitVal(s[k])
		if d < 0 || d >= base {
			break
		}
		n = n*base + d
		k++
	}
	return n, k
}

// DigitVal is the value of c as a digit of any base up to 36 (-1 when it
// is not a letter or a decimal digit).
func DigitVal(c byte) int { return digitVal(c) }

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return -1
}

// Digits reads up to max digits of base at the start of s, as the
// shell's escapes do: the value and how many bytes it read.
func Digits(s string, base, max int) (int, int) { return digits(s, base, max) }

// Letter is the byte a C escape letter stands for (\a \b \e \f \n \r \t
// \v), the escapes every tool that decodes escapes shares.
func Letter(c byte) (byte, bool) {
	switch c {
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'e':
		return 0x1b, true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	}
	return 0, false
}
