// Package printf implements GNU coreutils' printf (/usr/bin/printf, env
// printf): the format is reused while arguments remain, %b expands
// backslash escapes in its argument, %q quotes it for the shell, numeric
// arguments may be C constants (0x10, 010, 'c) and are checked with
// GNU's warnings, and floating-point conversions use long double
// precision. The shell's own printf builtin is separate.
package printf

import (
	"context"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/cfmt"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// errStop ends the output: \c, or a fatal error already reported.
var errStop = errors.New("stop")

type printer struct {
	c      *builtins.Call
	out    *textfmt.Output
	status int
	utf    bool
	exit   int // status to return after errStop
}

func (p *printer) q(s string) string { return utilcmd.Q(p.c, s) }

// die reports a fatal error.
func (p *printer) die(format string, a ...any) error {
	p.c.Errorf(format, a...)
	p.exit = 1
	return errStop
}

// Run formats and prints its arguments.
func Run(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	if len(args) == 1 {
		switch args[0] {
		case "--help":
			return textfmt.Help(c, helpText(c.Name()))
		case "--version":
			return c.Version()
		}
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		c.Errorf("missing operand")
		return c.TryHelp(1)
	}
	p := &printer{c: c, out: textfmt.NewOutput(c.Stdout), utf: utilcmd.UTF8(c)}
	format, args := args[0], args[1:]
	var tick textfmt.Tick
	for {
		used, err := p.formatted(format, args)
		if err == errStop {
			return p.out.Finish(c, p.exit)
		}
		args = args[used:]
		if used == 0 || len(args) == 0 || p.out.Failed() {
			break
		}
		if tick.Stop(ctx) {
			p.out.Flush()
			return 130
		}
	}
	if len(args) > 0 {
		c.Errorf("warning: ignoring excess arguments, starting with %s", p.q(args[0]))
	}
	return p.out.Finish(c, p.status)
}

// formatted prints the format once and returns the number of arguments
// used.
func (p *printer) formatted(f string, args []string) (int, error) {
	n := len(args)
	next := func() (string, bool) {
		if len(args) == 0 {
			return "", false
		}
		a := args[0]
		args = args[1:]
		return a, true
	}
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '\\':
			k, err := p.esc(f[i:], false)
			if err != nil {
				return 0, err
			}
			i += k
		case '%':
			start := i
			i++
			if i < len(f) && f[i] == '%' {
				p.out.WriteByte('%')
				continue
			}
			if i < len(f) && f[i] == 'b' {
				if a, ok := next(); ok {
					if err := p.escString(a); err != nil {
						return 0, err
					}
				}
				continue
			}
			if i < len(f) && f[i] == 'q' {
				if a, ok := next(); ok {
					p.out.WriteString(quote.New(p.c).Quote(a, quote.ShellEscape))
				}
				continue
			}
			okVerb := map[byte]bool{'a': true, 'A': true, 'c': true, 'd': true, 'e': true, 'E': true, 'f': true,
				'F': true, 'g': true, 'G': true, 'i': true, 'o': true, 's': true, 'u': true, 'x': true, 'X': true}
			spec := cfmt.Spec{Width: -1, Prec: -1}
		flags:
			for ; i < len(f); i++ {
				switch f[i] {
				case 'I', '\'':
					for _, v := range "aAceEosxX" {
						okVerb[byte(v)] = false
					}
				case '-':
					spec.Minus = true
				case '+':
					spec.Plus = true
				case ' ':
					spec.Space = true
				case '#':
					spec.Hash = true
					for _, v := range "cdisu" {
						okVerb[byte(v)] = false
					}
				case '0':
					spec.Zero = true
					okVerb['c'], okVerb['s'] = false, false
				default:
					break flags
				}
			}
			if i < len(f) && f[i] == '*' {
				i++
				spec.Width = 0
				if a, ok := next(); ok {
					w, _ := p.toInt(a)
					if !w.IsInt64() || w.Int64() < -1<<31 || w.Int64() > 1<<31-1 {
						return 0, p.die("invalid field width: %s", p.q(a))
					}
					spec.Width = int(w.Int64())
					if spec.Width < 0 {
						spec.Minus = true
						spec.Width = -spec.Width
					}
				}
			} else {
				j := i
				for i < len(f) && f[i] >= '0' && f[i] <= '9' {
					i++
				}
				if i > j {
					spec.Width = atoiCap(f[j:i])
				}
			}
			if i < len(f) && f[i] == '.' {
				i++
				okVerb['c'] = false
				if i < len(f) && f[i] == '*' {
					i++
					spec.Prec = 0
					if a, ok := next(); ok {
						v, _ := p.toInt(a)
						switch {
						case v.Sign() < 0:
							spec.Prec = -1
						case !v.IsInt64() || v.Int64() > 1<<31-1:
							return 0, p.die("invalid precision: %s", p.q(a))
						default:
							spec.Prec = int(v.Int64())
						}
					}
				} else {
					j := i
					for i < len(f) && f[i] >= '0' && f[i] <= '9' {
						i++
					}
					spec.Prec = atoiCap(f[j:i])
				}
			}
			for i < len(f) && strings.IndexByte("lLhjtz", f[i]) >= 0 {
				i++
			}
			if i >= len(f) || !okVerb[f[i]] {
				end := min(i+1, len(f))
				return 0, p.die("%s: invalid conversion specification", f[start:end])
			}
			spec.Verb = f[i]
			a, _ := next()
			p.directive(spec, a)
		default:
			p.out.WriteByte(f[i])
		}
	}
	return n - len(args), nil
}

func atoiCap(s string) int {
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > 1<<20 {
		return 1 << 20
	}
	return n
}

// directive prints one converted argument.
func (p *printer) directive(s cfmt.Spec, a string) {
	switch s.Verb {
	case 'd', 'i':
		v, _ := p.toInt(a)
		p.out.WriteString(cfmt.Int(s, v))
	case 'o', 'u', 'x', 'X':
		p.out.WriteString(cfmt.Uint(s, p.toUint(a)))
	case 'c':
		var ch string
		if a == "" {
			ch = "\x00"
		} else {
			ch = a[:1]
		}
		p.out.WriteString(padString(s, ch))
	case 's':
		if s.Prec >= 0 && s.Prec < len(a) {
			a = a[:s.Prec]
		}
		p.out.WriteString(padString(s, a))
	default:
		p.out.WriteString(cfmt.FloatString(s, p.toFloat(a)))
	}
}

func padString(s cfmt.Spec, a string) string {
	if s.Width <= len(a) {
		return a
	}
	fill := strings.Repeat(" ", s.Width-len(a))
	if s.Minus {
		return a + fill
	}
	return fill + a
}

// charConst reads a 'c or "c argument: the character's code.
func (p *printer) charConst(a string) (int64, bool) {
	if len(a) < 2 || a[0] != '\'' && a[0] != '"' {
		return 0, false
	}
	s := a[1:]
	v, n := int64(s[0]), 1
	if p.utf && len(s) > 1 {
		if r, size := utf8.DecodeRuneInString(s); r != utf8.RuneError || size > 1 {
			v, n = int64(r), size
		}
	}
	if n < len(s) {
		p.c.Errorf("warning: %s: character(s) following character constant have been ignored", s[n:])
	}
	return v, true
}

// verify reports a number that was not (completely) converted.
func (p *printer) verify(a string, used int, rangeErr bool) {
	switch {
	case rangeErr:
		p.c.Errorf("%s: Numerical result out of range", p.q(a))
		p.status = 1
	case used < len(a):
		if used == 0 {
			p.c.Errorf("%s: expected a numeric value", p.q(a))
		} else {
			p.c.Errorf("%s: value not completely converted", p.q(a))
		}
		p.status = 1
	}
}

// scanInt reads an integer as strtoimax with base 0 does: the magnitude,
// whether it is negative, and the bytes used.
func scanInt(a string) (mag *big.Int, neg bool, used int) {
	i := 0
	for i < len(a) && (a[i] == ' ' || a[i] >= '\t' && a[i] <= '\r') {
		i++
	}
	if i < len(a) && (a[i] == '+' || a[i] == '-') {
		neg = a[i] == '-'
		i++
	}
	base := 10
	if i+1 < len(a) && a[i] == '0' && (a[i+1]|0x20) == 'x' && i+2 < len(a) && isDigit(a[i+2], 16) {
		base = 16
		i += 2
	} else if i < len(a) && a[i] == '0' {
		base = 8
	}
	j := i
	for j < len(a) && isDigit(a[j], base) {
		j++
	}
	if j == i {
		return new(big.Int), false, 0
	}
	mag, _ = new(big.Int).SetString(a[i:j], base)
	return mag, neg, j
}

func isDigit(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '9':
		return int(c-'0') < base
	case base == 16:
		return c|0x20 >= 'a' && c|0x20 <= 'f'
	}
	return false
}

var (
	maxInt  = new(big.Int).SetInt64(1<<63 - 1)
	minInt  = new(big.Int).SetInt64(-1 << 63)
	maxUint = new(big.Int).SetUint64(1<<64 - 1)
)

// toInt converts an argument for %d and %i (and * widths).
func (p *printer) toInt(a string) (*big.Int, bool) {
	if v, ok := p.charConst(a); ok {
		return big.NewInt(v), true
	}
	mag, neg, used := scanInt(a)
	if neg {
		mag.Neg(mag)
	}
	rangeErr := false
	if mag.Cmp(maxInt) > 0 {
		mag.Set(maxInt)
		rangeErr = true
	} else if mag.Cmp(minInt) < 0 {
		mag.Set(minInt)
		rangeErr = true
	}
	p.verify(a, used, rangeErr)
	return mag, !rangeErr && used == len(a)
}

// toUint converts an argument for %o %u %x %X; negative values wrap.
func (p *printer) toUint(a string) uint64 {
	if v, ok := p.charConst(a); ok {
		return uint64(v)
	}
	mag, neg, used := scanInt(a)
	rangeErr := false
	if mag.Cmp(maxUint) > 0 {
		mag.Set(maxUint)
		rangeErr = true
		neg = false
	}
	p.verify(a, used, rangeErr)
	v := mag.Uint64()
	if neg {
		v = -v
	}
	return v
}

// toFloat converts an argument for the floating-point conversions.
func (p *printer) toFloat(a string) cfmt.Float {
	if v, ok := p.charConst(a); ok {
		return cfmt.Float{F: new(big.Float).SetPrec(cfmt.Prec).SetInt64(v)}
	}
	v, used, rangeErr := cfmt.ParseFloat(a)
	if used == 0 {
		v = cfmt.Float{F: new(big.Float).SetPrec(cfmt.Prec)}
	}
	p.verify(a, used, rangeErr)
	return v
}

// esc prints the escape sequence starting at s[0] == '\\' and returns the
// number of bytes after the backslash it used. In %b arguments (octal0)
// octal escapes are \0NNN.
func (p *printer) esc(s string, octal0 bool) (int, error) {
	i := 1
	switch {
	case i < len(s) && s[i] == 'x':
		i++
		v, n := 0, 0
		for n < 2 && i < len(s) && isDigit(s[i], 16) {
			v = v*16 + hexVal(s[i])
			i++
			n++
		}
		if n == 0 {
			return 0, p.die("missing hexadecimal number in escape")
		}
		p.out.WriteByte(byte(v))
	case i < len(s) && s[i] >= '0' && s[i] <= '7':
		if octal0 && s[i] == '0' {
			i++
		}
		v, n := 0, 0
		for n < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' {
			v = v*8 + int(s[i]-'0')
			i++
			n++
		}
		p.out.WriteByte(byte(v))
	case i < len(s) && strings.IndexByte("\"\\abcefnrtv", s[i]) >= 0:
		switch s[i] {
		case 'c':
			p.exit = 0
			return 0, errStop
		case 'a':
			p.out.WriteByte('\a')
		case 'b':
			p.out.WriteByte('\b')
		case 'e':
			p.out.WriteByte(0x1b)
		case 'f':
			p.out.WriteByte('\f')
		case 'n':
			p.out.WriteByte('\n')
		case 'r':
			p.out.WriteByte('\r')
		case 't':
			p.out.WriteByte('\t')
		case 'v':
			p.out.WriteByte('\v')
		default:
			p.out.WriteByte(s[i])
		}
		i++
	case i < len(s) && (s[i] == 'u' || s[i] == 'U'):
		kind := s[i]
		n := 4
		if kind == 'U' {
			n = 8
		}
		i++
		v := uint32(0)
		for ; n > 0; n-- {
			if i >= len(s) || !isDigit(s[i], 16) {
				return 0, p.die("missing hexadecimal number in escape")
			}
			v = v*16 + uint32(hexVal(s[i]))
			i++
		}
		if v <= 0x9f && v != 0x24 && v != 0x40 && v != 0x60 || v >= 0xd800 && v <= 0xdfff {
			w := 4
			if kind == 'U' {
				w = 8
			}
			return 0, p.die("invalid universal character name \\%c%0*x", kind, w, v)
		}
		if p.utf && v <= utf8.MaxRune {
			p.out.WriteRune(rune(v))
		} else if v < 0x80 {
			p.out.WriteByte(byte(v))
		} else {
			// Not representable outside UTF-8: GNU prints the escape.
			if kind == 'u' {
				p.out.WriteString("\\u" + strings.ToUpper(strconv.FormatUint(uint64(v), 16)))
			} else {
				p.out.WriteString("\\U" + strings.ToUpper(strconv.FormatUint(uint64(v), 16)))
			}
		}
	default:
		p.out.WriteByte('\\')
		if i < len(s) {
			p.out.WriteByte(s[i])
			i++
		}
	}
	return i - 1, nil
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// escString prints a %b argument.
func (p *printer) escString(s string) error {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			p.out.WriteByte(s[i])
			continue
		}
		k, err := p.esc(s[i:], true)
		if err != nil {
			return err
		}
		i += k
	}
	return nil
}

func helpText(name string) string {
	return "Usage: " + name + " FORMAT [ARGUMENT]...\n  or:  " + name + " OPTION\n" +
		"Print ARGUMENT(s) according to FORMAT, or execute according to OPTION:\n\n" +
		utilcmd.Trailer() + `
FORMAT controls the output as in C printf.  Interpreted sequences are:

  \"      double quote
  \\      backslash
  \a      alert (BEL)
  \b      backspace
  \c      produce no further output
  \e      escape
  \f      form feed
  \n      new line
  \r      carriage return
  \t      horizontal tab
  \v      vertical tab
  \NNN    byte with octal value NNN (1 to 3 digits)
  \xHH    byte with hexadecimal value HH (1 to 2 digits)
  \uHHHH  Unicode (ISO/IEC 10646) character with hex value HHHH (4 digits)
  \UHHHHHHHH  Unicode character with hex value HHHHHHHH (8 digits)
  %%      a single %
  %b      ARGUMENT as a string with '\' escapes interpreted,
          except that octal escapes are of the form \0 or \0NNN
  %q      ARGUMENT is printed in a format that can be reused as shell input,
          escaping non-printable characters with the proposed POSIX $'' syntax.

and all C format specifications ending with one of diouxXfeEgGcs, with
ARGUMENTs converted to proper type first.  Variable widths are handled.
`
}
