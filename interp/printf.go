package interp

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/timefmt"
)

// printfEnv is what a printf run needs from the shell: the clock for
// %(fmt)T, the zone, and the variable setter for %n.
type printfEnv struct {
	now, start int64 // -1 and -2 in %(fmt)T
	loc        *time.Location
	setVar     func(name, val string) bool
}

// printer is one run of bash's printf: the format is reused until the
// arguments run out, numeric arguments accept 'c for a character code,
// and bad numbers print bash's messages but still format what parsed.
type printer struct {
	env      printfEnv
	out      strings.Builder
	errw     io.Writer
	args     []string
	consumed bool
	status   int
}

func (p *printer) next() (string, bool) {
	if len(p.args) == 0 {
		return "", false
	}
	a := p.args[0]
	p.args = p.args[1:]
	p.consumed = true
	return a, true
}

func (p *printer) warn(format string, args ...any) {
	fmt.Fprintf(p.errw, "printf: "+format+"\n", args...)
}

// bashPrintf formats format with args into w, reporting errors to errw
// (which adds the shell's prefix). It returns the exit status.
func bashPrintf(w io.Writer, errw io.Writer, env printfEnv, format string, args []string) int {
	p := &printer{env: env, errw: errw, args: args}
	for {
		p.consumed = false
		stop := p.pass(format)
		if stop || !p.consumed || len(p.args) == 0 {
			break
		}
	}
	if _, err := io.WriteString(w, p.out.String()); err != nil {
		if err == errBadFD {
			p.warn("write error: Bad file descriptor")
		}
		return 1
	}
	return p.status
}

// pass runs the format once; true means stop everything (an invalid
// conversion or \c in %b).
func (p *printer) pass(format string) bool {
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch == '\\' {
			s, n, _ := unescape(format[i:], false)
			p.out.WriteString(s)
			i += n - 1
			continue
		}
		if ch != '%' {
			p.out.WriteByte(ch)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			p.out.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		flags := ""
		for j < len(format) && strings.IndexByte("#'-+ 0", format[j]) >= 0 {
			if format[j] != '\'' {
				flags += format[j : j+1]
			}
			j++
		}
		width, prec := -1, -1
		if j < len(format) && format[j] == '*' {
			a, _ := p.next()
			n, _ := p.intArg(a)
			width = int(n)
			if width < 0 {
				flags += "-"
				width = -width
			}
			j++
		} else {
			k := j
			for k < len(format) && format[k] >= '0' && format[k] <= '9' {
				k++
			}
			if k > j {
				width, _ = strconv.Atoi(format[j:k])
			}
			j = k
		}
		if j < len(format) && format[j] == '.' {
			j++
			prec = 0
			if j < len(format) && format[j] == '*' {
				a, _ := p.next()
				n, _ := p.intArg(a)
				prec = int(n)
				if prec < 0 {
					prec = -1
				}
				j++
			} else {
				k := j
				for k < len(format) && format[k] >= '0' && format[k] <= '9' {
					k++
				}
				prec, _ = strconv.Atoi("0" + format[j:k])
				j = k
			}
		}
		for j < len(format) && strings.IndexByte("hjlLtz", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			p.warn("`%s': missing format character", format[i:])
			p.status = 1
			return true
		}
		verb := format[j]
		timeFmt := ""
		if verb == '(' {
			end := strings.IndexByte(format[j:], ')')
			if end < 0 || j+end+1 >= len(format) || format[j+end+1] != 'T' {
				p.warn("`(': invalid time format specification")
				p.status = 1
				return true
			}
			timeFmt = format[j+1 : j+end]
			j += end + 1
			verb = 'T'
		}
		i = j
		if p.convert(verb, flags, width, prec, timeFmt) {
			return true
		}
	}
	return false
}

// convert formats one argument; true means stop.
func (p *printer) convert(verb byte, flags string, width, prec int, timeFmt string) bool {
	switch verb {
	case 's', 'b', 'q', 'Q', 'c', 'T':
		arg, have := p.next()
		var s string
		stop := false
		switch verb {
		case 's':
			s = arg
		case 'b':
			var stopped bool
			s, _, stopped = unescape(arg, true)
			stop = stopped
		case 'q':
			s = shellQuote(arg)
		case 'Q':
			if prec >= 0 && prec < len(arg) {
				arg = arg[:prec]
			}
			s, prec = shellQuote(arg), -1
		case 'c':
			s = "\x00"
			if arg != "" {
				s = arg[:1]
			}
		case 'T':
			n := int64(-1)
			if have {
				n, _ = p.intArg(arg)
			}
			switch n {
			case -1:
				n = p.env.now
			case -2:
				n = p.env.start
			}
			if timeFmt == "" {
				timeFmt = "%X"
			}
			s = timefmt.Strftime(time.Unix(n, 0).In(p.env.loc), timeFmt)
		}
		if prec >= 0 && prec < len(s) && verb != 'c' {
			s = s[:prec]
		}
		p.pad(s, flags, width)
		return stop
	case 'n':
		arg, _ := p.next()
		if p.env.setVar != nil && arg != "" {
			p.env.setVar(arg, itoa(p.out.Len()))
		}
		return false
	case 'd', 'i':
		arg, _ := p.next()
		n, _ := p.intArg(arg)
		p.out.WriteString(fmt.Sprintf(goSpec(flags, width, prec, 'd'), n))
		return false
	case 'u', 'o', 'x', 'X':
		arg, _ := p.next()
		n := p.uintArg(arg)
		v := verb
		if v == 'u' {
			v = 'd'
		}
		if n == 0 && v != 'o' {
			flags = strings.ReplaceAll(flags, "#", "")
		}
		p.out.WriteString(fmt.Sprintf(goSpec(strings.NewReplacer("+", "", " ", "").Replace(flags), width, prec, v), n))
		return false
	case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
		arg, _ := p.next()
		x := p.floatArg(arg)
		p.out.WriteString(formatFloat(x, verb, flags, width, prec))
		return false
	}
	p.warn("`%c': invalid format character", verb)
	p.status = 1
	return true
}

// pad writes s padded to width with spaces, as C's %s does (a 0 flag
// does not zero-pad strings).
func (p *printer) pad(s, flags string, width int) {
	fill := width - len(s)
	left := strings.Contains(flags, "-")
	if fill > 0 && !left {
		p.out.WriteString(strings.Repeat(" ", fill))
	}
	p.out.WriteString(s)
	if fill > 0 && left {
		p.out.WriteString(strings.Repeat(" ", fill))
	}
}

func goSpec(flags string, width, prec int, verb byte) string {
	var b strings.Builder
	b.WriteByte('%')
	b.WriteString(flags)
	if width >= 0 {
		b.WriteString(strconv.Itoa(width))
	}
	if prec >= 0 {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(prec))
	}
	b.WriteByte(verb)
	return b.String()
}

// formatFloat formats x as C's printf does: %g with six significant
// digits by default, inf and nan spelled C's way.
func formatFloat(x float64, verb byte, flags string, width, prec int) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		s := "inf"
		if math.IsNaN(x) {
			s = "nan"
		}
		if math.Signbit(x) {
			s = "-" + s
		} else if strings.Contains(flags, "+") {
			s = "+" + s
		} else if strings.Contains(flags, " ") {
			s = " " + s
		}
		if verb >= 'A' && verb <= 'Z' {
			s = strings.ToUpper(s)
		}
		return fmt.Sprintf(goSpec(strings.ReplaceAll(flags, "0", ""), width, -1, 's'), s)
	}
	v := verb
	switch verb {
	case 'F':
		v = 'f'
	case 'g', 'G':
		if prec < 0 {
			prec = 6
		}
		if prec == 0 {
			prec = 1
		}
	case 'a', 'A':
		v = 'x'
		if verb == 'A' {
			v = 'X'
		}
	}
	s := fmt.Sprintf(goSpec(flags, width, prec, v), x)
	if verb == 'g' || verb == 'G' {
		// Go drops %g's trailing zeros only without '#', as C; but Go
		// writes exponents the same. Nothing else to adjust.
		return s
	}
	return s
}

// numText splits a numeric argument as strtoimax sees it: leading
// space, sign, base prefix, digits, and what is left over.
func scanInt(a string) (neg bool, mag uint64, overflow bool, kind string, rest string, ok bool) {
	s := strings.TrimLeft(a, " \t\n\v\f\r")
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := 10
	kind = "number"
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, kind, s = 16, "hex number", s[2:]
	case len(s) >= 1 && s[0] == '0':
		base, kind = 8, "octal number"
	}
	k := 0
	for k < len(s) {
		d := strings.IndexByte("0123456789abcdef", lower(s[k]))
		if d < 0 || d >= base {
			break
		}
		if mag > (math.MaxUint64-uint64(d))/uint64(base) {
			overflow = true
		} else {
			mag = mag*uint64(base) + uint64(d)
		}
		k++
	}
	return neg, mag, overflow, kind, s[k:], k > 0
}

// intArg converts a signed argument (%d, widths, times).
func (p *printer) intArg(a string) (int64, bool) {
	if n, ok := charCode(a); ok {
		return n, true
	}
	if a == "" {
		return 0, true
	}
	neg, mag, overflow, kind, rest, ok := scanInt(a)
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	if overflow || mag > limit {
		mag = limit
		p.warn("warning: %s: Numerical result out of range", a)
	}
	n := int64(mag)
	if neg {
		n = -n
	}
	if !ok || rest != "" {
		p.warn("%s: invalid %s", a, kind)
		p.status = 1
		return n, false
	}
	return n, true
}

// uintArg converts an unsigned argument (%u %o %x %X): negatives wrap.
func (p *printer) uintArg(a string) uint64 {
	if n, ok := charCode(a); ok {
		return uint64(n)
	}
	if a == "" {
		return 0
	}
	neg, mag, overflow, kind, rest, ok := scanInt(a)
	if overflow {
		mag = math.MaxUint64
		p.warn("warning: %s: Numerical result out of range", a)
	}
	if neg {
		mag = -mag
	}
	if !ok || rest != "" {
		p.warn("%s: invalid %s", a, kind)
		p.status = 1
	}
	return mag
}

// floatPrefix is compiled on first use: a package-level regexp costs every
// start of the binary, printf or not.
var floatPrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[+-]?(?i:inf(?:inity)?|nan|0x[0-9a-f]*\.?[0-9a-f]*(?:p[+-]?[0-9]+)?|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)`)
})

// floatArg converts a floating argument as strtold does: the longest
// valid prefix, the rest an error.
func (p *printer) floatArg(a string) float64 {
	if n, ok := charCode(a); ok {
		return float64(n)
	}
	s := strings.TrimLeft(a, " \t\n\v\f\r")
	if a == "" {
		return 0
	}
	m := floatPrefix().FindString(s)
	var x float64
	if m != "" {
		var err error
		x, err = strconv.ParseFloat(m, 64)
		if err != nil {
			lm := strings.ToLower(m)
			if strings.Contains(lm, "0x") && !strings.Contains(lm, "p") {
				x, err = strconv.ParseFloat(m+"p0", 64)
			}
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				err = nil
			}
			if err != nil {
				m = ""
			}
		}
	}
	if m == "" || len(m) < len(s) {
		p.warn("%s: invalid number", a)
		p.status = 1
	}
	return x
}

func charCode(a string) (int64, bool) {
	if len(a) > 0 && (a[0] == '\'' || a[0] == '"') {
		if len(a) == 1 {
			return 0, true
		}
		r, size := utf8.DecodeRuneInString(a[1:])
		if r == utf8.RuneError && size <= 1 {
			return int64(a[1]), true
		}
		return int64(r), true
	}
	return 0, false
}

// unescape expands backslash escapes at the start of s (format mode) or
// in all of s (%b mode, where \c stops all output). It returns the text,
// the bytes consumed and whether \c was met.
func unescape(s string, all bool) (string, int, bool) {
	return unescapeMode(s, all, false)
}

// unescapeMode is unescape; echo drops the \NNN form without a leading
// zero, which echo -e leaves as it is.
func unescapeMode(s string, all, echo bool) (string, int, bool) {
	var b strings.Builder
	i := 0
	for i < len(s) {
		if s[i] != '\\' || i+1 >= len(s) {
			if !all {
				b.WriteByte(s[i])
				return b.String(), i + 1, false
			}
			b.WriteByte(s[i])
			i++
			continue
		}
		c := s[i+1]
		i += 2
		switch c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case '\\':
			b.WriteByte('\\')
		case '"':
			b.WriteByte('"')
		case '\'':
			b.WriteByte('\'')
		case 'c':
			if all {
				return b.String(), i, true
			}
			b.WriteString("\\c")
		case 'x':
			n, k := digits(s[i:], 16, 2)
			if k == 0 {
				b.WriteString("\\x")
			} else {
				b.WriteByte(byte(n))
				i += k
			}
		case 'u', 'U':
			max := 4
			if c == 'U' {
				max = 8
			}
			n, k := digits(s[i:], 16, max)
			if k == 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
			} else {
				b.WriteRune(rune(n))
				i += k
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// \NNN in a format, \0NNN in %b.
			if echo && c != '0' {
				b.WriteByte('\\')
				b.WriteByte(c)
				break
			}
			start := i - 1
			max := 3
			if all && c == '0' {
				start, max = i, 3
			}
			n, k := digits(s[start:], 8, max)
			b.WriteByte(byte(n))
			i = start + k
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
		if !all {
			return b.String(), i, false
		}
	}
	return b.String(), i, false
}

func digits(s string, base, max int) (int, int) {
	n, k := 0, 0
	for k < len(s) && k < max {
		d := strings.IndexByte("0123456789abcdef", lower(s[k]))
		if d < 0 || d >= base {
			break
		}
		n = n*base + d
		k++
	}
	return n, k
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}

// shellQuote quotes s the way bash's printf %q does.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return ansiQuote(s)
		}
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r >= 0x80:
		case strings.ContainsRune("_-./:=+@%", r):
		case (r == '~' || r == '#') && i > 0:
		default:
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		case 0x1b:
			b.WriteString(`\E`)
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// singleQuote quotes s for re-parsing by the shell.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
