// Package printf is the printf engine shared by the shell's printf
// builtin and GNU's printf(1): the format reused while arguments remain,
// C's conversions with long double floating point (internal/cfmt),
// character constants ('c) and C integer constants as arguments, and the
// backslash escapes. What differs between the two is injected through a
// Dialect: bash's escapes, %q quoting, %Q, %(fmt)T and %n, GNU's stricter
// conversion checks, and each one's diagnostics.
package printf

import (
	"bytes"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bashbox/bashbox/internal/cfmt"
)

// Message is a diagnostic the engine asks its dialect to word.
type Message int

const (
	// BadConversion: text is the directive as written, up to the bad byte.
	BadConversion Message = iota
	// MissingVerb: the format ends inside a directive (text as above).
	MissingVerb
	// BadTime: a %( without its closing )T.
	BadTime
	// BadWidth and BadPrecision: a * argument out of int range (GNU).
	BadWidth
	BadPrecision
	// BadHexEscape: \x, \u or \U without its digits (GNU).
	BadHexEscape
	// BadUnicode: a \u escape naming a code point C forbids (GNU); text is
	// the escape.
	BadUnicode
	// ExcessArgs: a format that used no argument, with arguments left;
	// text is the first of them.
	ExcessArgs
)

// Problem says what was wrong with a numeric argument (a bit set).
type Problem int

const (
	// NotNumber: no digits at all.
	NotNumber Problem = 1 << iota
	// Partial: a number followed by other text.
	Partial
	// OutOfRange: the value was clamped to the type's range.
	OutOfRange
	// AfterChar: text after a character constant ('ab); arg is that text.
	AfterChar
)

// Dialect is what one printf does its own way.
type Dialect struct {
	// Shell selects bash's rules: its escapes (\E, \', \c printed as
	// written in a format, \x and \u without digits kept with a warning),
	// flags, width and precision on %b and %q, %Q, a lone quote as the
	// character constant 0, and no checks of flags against conversions.
	Shell bool
	// UTF8 decodes character constants and \u escapes as UTF-8.
	UTF8 bool
	// Quote is %q (and %Q).
	Quote func(string) string
	// Time formats %(layout)T for an argument in seconds (have is false
	// when the argument is missing); nil makes %( invalid.
	Time func(layout string, secs int64, have bool) string
	// SetVar receives %n's count of bytes printed; nil makes %n invalid.
	SetVar func(name, value string)
	// Say reports a diagnostic. Every message but ExcessArgs and the
	// bash escape warnings (Warn) ends the output.
	Say func(m Message, text string)
	// Warn reports bash's warnings about escapes (nil: none).
	Warn func(msg string)
	// Number reports a numeric argument that had problems, kind being
	// "number", "hex number" or "octal number" as its prefix suggests; true
	// makes the exit status 1.
	Number func(arg string, p Problem, kind string) bool
	// Cancelled is asked between passes over the format (nil: never).
	Cancelled func() bool
}

// End is why the output ended.
type End int

const (
	Done      End = iota // the arguments ran out
	Stopped              // \c
	Failed               // an error already reported by Say
	Cancelled            // Dialect.Cancelled said so
	WriteFailed
)

// Result is the outcome of a run.
type Result struct {
	Status int // 1 when a numeric argument or a directive failed
	End    End
	Err    error // the write error with WriteFailed
}

// Run prints format with args to w, reusing the format while it uses
// arguments and some remain. Each pass over the format is written as one
// piece.
func Run(w io.Writer, d *Dialect, format string, args []string) Result {
	e := &engine{d: d, args: args}
	e.esc = escaper{shell: d.Shell, where: InFormat, utf8: d.UTF8, out: &e.buf, warn: d.Warn, fail: e.fail}
	var res Result
	for {
		n := len(e.args)
		end := e.pass(format)
		if e.buf.Len() > 0 {
			e.written += e.buf.Len()
			if _, err := w.Write(e.buf.Bytes()); err != nil {
				return Result{Status: 1, End: WriteFailed, Err: err}
			}
			e.buf.Reset()
		}
		if end != Done {
			res.End = end
			break
		}
		if len(e.args) == n || len(e.args) == 0 {
			if len(e.args) > 0 {
				d.Say(ExcessArgs, e.args[0])
			}
			break
		}
		if d.Cancelled != nil && d.Cancelled() {
			res.End = Cancelled
			break
		}
	}
	res.Status = e.status
	if res.End == Failed {
		res.Status = 1
	}
	return res
}

type engine struct {
	d       *Dialect
	args    []string
	buf     bytes.Buffer
	written int // bytes written by earlier passes (for %n)
	status  int
	esc     escaper
}

func (e *engine) fail(m Message, text string) error {
	e.d.Say(m, text)
	return errFailed
}

var errFailed = stopError("failed")

func (e *engine) next() (string, bool) {
	if len(e.args) == 0 {
		return "", false
	}
	a := e.args[0]
	e.args = e.args[1:]
	return a, true
}

// pass prints the format once.
func (e *engine) pass(f string) End {
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '\\':
			e.esc.where = InFormat
			n, err := e.esc.one(f[i:])
			if err != nil {
				return endOf(err)
			}
			i += n - 1
		case '%':
			n, end := e.directive(f[i:])
			if end != Done {
				return end
			}
			i += n - 1
		default:
			e.buf.WriteByte(f[i])
		}
	}
	return Done
}

func endOf(err error) End {
	if err == errStopped {
		return Stopped
	}
	return Failed
}

// spec is one parsed directive.
type spec struct {
	cfmt.Spec
	layout string // %(layout)T
}

// directive prints the directive at f[0] == '%' and returns its length.
func (e *engine) directive(f string) (int, End) {
	d := e.d
	if len(f) > 1 && f[1] == '%' {
		e.buf.WriteByte('%')
		return 2, Done
	}
	if !d.Shell && len(f) > 1 && (f[1] == 'b' || f[1] == 'q') {
		// GNU takes neither flags nor a width for %b and %q.
		return 2, e.convert(spec{Spec: cfmt.Spec{Width: -1, Prec: -1, Verb: f[1]}})
	}
	// okVerb is GNU's check of the flags against the conversion.
	okVerb := map[byte]bool{}
	for _, v := range "aAcdeEfFgGiosuxX" {
		okVerb[byte(v)] = true
	}
	s := spec{Spec: cfmt.Spec{Width: -1, Prec: -1}}
	i := 1
flags:
	for ; i < len(f); i++ {
		switch f[i] {
		case '\'':
			for _, v := range "aAceEosxX" {
				okVerb[byte(v)] = false
			}
		case 'I':
			if d.Shell {
				break flags
			}
			for _, v := range "aAceEosxX" {
				okVerb[byte(v)] = false
			}
		case '-':
			s.Minus = true
		case '+':
			s.Plus = true
		case ' ':
			s.Space = true
		case '#':
			s.Hash = true
			for _, v := range "cdisu" {
				okVerb[byte(v)] = false
			}
		case '0':
			s.Zero = true
			okVerb['c'], okVerb['s'] = false, false
		default:
			break flags
		}
	}
	if i < len(f) && f[i] == '*' {
		i++
		s.Width = 0
		if a, ok := e.next(); ok {
			w := e.toInt(a)
			if !w.IsInt64() || w.Int64() < -1<<31 || w.Int64() > 1<<31-1 {
				if !d.Shell {
					return i, e.sayFail(BadWidth, a)
				}
				w.SetInt64(0)
			}
			s.Width = int(w.Int64())
			if s.Width < 0 {
				s.Minus = true
				s.Width = -s.Width
			}
		}
	} else {
		j := i
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		if i > j {
			s.Width = atoiCap(f[j:i])
		}
	}
	if i < len(f) && f[i] == '.' {
		i++
		okVerb['c'] = false
		if i < len(f) && f[i] == '*' {
			i++
			s.Prec = 0
			if a, ok := e.next(); ok {
				v := e.toInt(a)
				switch {
				case v.Sign() < 0:
					s.Prec = -1
				case !v.IsInt64() || v.Int64() > 1<<31-1:
					if !d.Shell {
						return i, e.sayFail(BadPrecision, a)
					}
					s.Prec = 1<<31 - 1
				default:
					s.Prec = int(v.Int64())
				}
			}
		} else {
			j := i
			for i < len(f) && f[i] >= '0' && f[i] <= '9' {
				i++
			}
			s.Prec = atoiCap(f[j:i])
		}
	}
	for i < len(f) && strings.IndexByte("hjlLtz", f[i]) >= 0 {
		i++
	}
	if i >= len(f) {
		return i, e.sayFail(MissingVerb, f[:i])
	}
	v := f[i]
	if d.Shell {
		switch v {
		case '(':
			end := strings.IndexByte(f[i:], ')')
			if d.Time == nil || end < 0 || i+end+1 >= len(f) || f[i+end+1] != 'T' {
				return i + 1, e.sayFail(BadTime, "(")
			}
			s.layout = f[i+1 : i+end]
			i += end + 1
			v = 'T'
		case 'b', 'q', 'Q', 'n':
			okVerb[v] = v != 'n' || d.SetVar != nil
		default:
			okVerb[v] = strings.IndexByte("aAcdeEfFgGiosuxX", v) >= 0
		}
		if v == 'T' {
			okVerb[v] = true
		}
	}
	if !okVerb[v] {
		return i + 1, e.sayFail(BadConversion, f[:i+1])
	}
	s.Verb = v
	return i + 1, e.convert(s)
}

func (e *engine) sayFail(m Message, text string) End {
	e.d.Say(m, text)
	return Failed
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

// convert prints one argument.
func (e *engine) convert(s spec) End {
	switch s.Verb {
	case 'd', 'i':
		a, _ := e.next()
		e.buf.WriteString(cfmt.Int(s.Spec, e.toInt(a)))
	case 'o', 'u', 'x', 'X':
		a, _ := e.next()
		e.buf.WriteString(cfmt.Uint(s.Spec, e.toUint(a)))
	case 'a', 'A', 'e', 'E', 'f', 'F', 'g', 'G':
		a, _ := e.next()
		e.buf.WriteString(cfmt.FloatString(s.Spec, e.toFloat(a)))
	case 'n':
		a, _ := e.next()
		if a != "" {
			e.d.SetVar(a, strconv.Itoa(e.written+e.buf.Len()))
		}
	case 'b':
		a, ok := e.next()
		if !ok {
			e.pad(s, "")
			return Done
		}
		var b bytes.Buffer
		esc := e.esc
		esc.where, esc.out = InArg, &b
		stop, err := esc.all(a)
		if err != nil {
			return Failed
		}
		e.pad(s, e.trunc(s, b.String()))
		if stop {
			return Stopped
		}
	case 'q':
		a, ok := e.next()
		if ok || e.d.Shell {
			e.pad(s, e.trunc(s, e.d.Quote(a)))
		}
	case 'Q':
		a, _ := e.next()
		s2 := s
		s2.Prec = -1
		e.pad(s2, e.d.Quote(e.trunc(s, a)))
	case 'T':
		a, have := e.next()
		secs := int64(-1)
		if have {
			secs = e.toInt(a).Int64()
		}
		e.pad(s, e.trunc(s, e.d.Time(s.layout, secs, have)))
	case 'c':
		a, _ := e.next()
		ch := "\x00"
		if a != "" {
			ch = a[:1]
		}
		e.pad(s, ch)
	case 's':
		a, _ := e.next()
		e.pad(s, e.trunc(s, a))
	}
	return Done
}

func (e *engine) trunc(s spec, a string) string {
	if s.Prec >= 0 && s.Prec < len(a) {
		return a[:s.Prec]
	}
	return a
}

// pad prints a string conversion: spaces to the width, never zeros.
func (e *engine) pad(s spec, a string) {
	fill := s.Width - len(a)
	if fill > 0 && !s.Minus {
		e.buf.WriteString(strings.Repeat(" ", fill))
	}
	e.buf.WriteString(a)
	if fill > 0 && s.Minus {
		e.buf.WriteString(strings.Repeat(" ", fill))
	}
}

// charConst reads a 'c or "c argument: the character's code.
func (e *engine) charConst(a string) (int64, bool) {
	if a == "" || a[0] != '\'' && a[0] != '"' {
		return 0, false
	}
	if len(a) == 1 {
		// bash takes a lone quote as the character NUL; GNU as no number.
		return 0, e.d.Shell
	}
	s := a[1:]
	v, n := int64(s[0]), 1
	if e.d.UTF8 && len(s) > 1 {
		if r, size := utf8.DecodeRuneInString(s); r != utf8.RuneError || size > 1 {
			v, n = int64(r), size
		}
	}
	if n < len(s) {
		e.report(s[n:], AfterChar, "")
	}
	return v, true
}

func (e *engine) report(a string, p Problem, kind string) {
	if e.d.Number(a, p, kind) {
		e.status = 1
	}
}

// check reports what went wrong converting a (used of its bytes).
func (e *engine) check(a string, used int, p Problem, kind string) {
	if used < len(a) {
		if used == 0 {
			p |= NotNumber
		} else {
			p |= Partial
		}
	}
	if p != 0 {
		e.report(a, p, kind)
	}
}

// numKind is what bash calls a number by its prefix.
func numKind(a string) string {
	s := strings.TrimLeft(a, " \t\n\v\f\r")
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1]|0x20) == 'x':
		return "hex number"
	case s != "" && s[0] == '0':
		return "octal number"
	}
	return "number"
}

// ScanInt reads an integer as strtoimax with base 0 does: the magnitude,
// whether it is negative, and the bytes used (0 when there is no number).
func ScanInt(a string) (mag *big.Int, neg bool, used int) {
	i := 0
	for i < len(a) && (a[i] == ' ' || a[i] >= '\t' && a[i] <= '\r') {
		i++
	}
	if i < len(a) && (a[i] == '+' || a[i] == '-') {
		neg = a[i] == '-'
		i++
	}
	base := 10
	if i+2 < len(a) && a[i] == '0' && (a[i+1]|0x20) == 'x' && isDigit(a[i+2], 16) {
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
	d := digitVal(c)
	return d >= 0 && d < base
}

// toInt converts an argument for %d and %i, * and %T.
func (e *engine) toInt(a string) *big.Int {
	if v, ok := e.charConst(a); ok {
		return big.NewInt(v)
	}
	mag, neg, used := ScanInt(a)
	if neg {
		mag.Neg(mag)
	}
	var p Problem
	// Out of int64's range: clamp, as strtoimax does. (IsInt64 rather than
	// package-level big.Int bounds, which every process would build.)
	if !mag.IsInt64() {
		if mag.Sign() > 0 {
			mag.SetInt64(math.MaxInt64)
		} else {
			mag.SetInt64(math.MinInt64)
		}
		p = OutOfRange
	}
	e.check(a, used, p, numKind(a))
	return mag
}

// toUint converts an argument for %o %u %x %X: negative values wrap, as
// strtoumax has them.
func (e *engine) toUint(a string) uint64 {
	if v, ok := e.charConst(a); ok {
		return uint64(v)
	}
	mag, neg, used := ScanInt(a)
	var p Problem
	if mag.Sign() > 0 && !mag.IsUint64() {
		mag.SetUint64(math.MaxUint64)
		p = OutOfRange
		neg = false
	}
	e.check(a, used, p, numKind(a))
	v := mag.Uint64()
	if neg {
		v = -v
	}
	return v
}

// toFloat converts an argument for the floating-point conversions.
func (e *engine) toFloat(a string) cfmt.Float {
	if v, ok := e.charConst(a); ok {
		return cfmt.Float{F: new(big.Float).SetPrec(cfmt.Prec).SetInt64(v)}
	}
	v, used, rangeErr := cfmt.ParseFloat(a)
	if used == 0 {
		v = cfmt.Float{F: new(big.Float).SetPrec(cfmt.Prec)}
	}
	var p Problem
	if rangeErr {
		p = OutOfRange
	}
	e.check(a, used, p, "number")
	return v
}
