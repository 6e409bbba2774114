// Package seq implements seq: print a sequence of numbers.
//
// Numbers are computed in 64-bit-mantissa binary floating point, as GNU
// seq computes in x87 long double, and printed with C printf rules;
// integer sequences are produced exactly, for numbers of any size.
package seq

import (
	"bufio"
	"context"
	"math/big"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/internal/cfmt"
)

const help = `Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

Mandatory arguments to long options are mandatory for short options too.
  -f, --format=FORMAT      use printf style floating-point FORMAT
  -s, --separator=STRING   use STRING to separate numbers (default: \n)
  -w, --equal-width        equalize width by padding with leading zeroes
      --help        display this help and exit
      --version     output version information and exit

If FIRST or INCREMENT is omitted, it defaults to 1.  That is, an
omitted INCREMENT defaults to 1 even when LAST is smaller than FIRST.
The sequence of numbers ends when the sum of the current number and
INCREMENT would become greater than LAST.
FIRST, INCREMENT, and LAST are interpreted as floating point values.
INCREMENT is usually positive if FIRST is smaller than LAST, and
INCREMENT is usually negative if FIRST is greater than LAST.
INCREMENT must not be 0; none of FIRST, INCREMENT and LAST may be NaN.
FORMAT must be suitable for printing one argument of type 'double';
it defaults to %.PRECf if FIRST, INCREMENT, and LAST are all fixed point
decimal numbers with maximum precision PREC, and to %g otherwise.
`

var options = []builtins.Option{
	{Short: 'w', Long: "equal-width"},
	{Short: 'f', Long: "format", Arg: builtins.RequiredArg},
	{Short: 's', Long: "separator", Arg: builtins.RequiredArg},
}

const fastStepLimit = 200

type operand struct {
	value     *big.Float
	width     int
	precision int // -1 when not a fixed-point number (GNU's INT_MAX)
}

const autoPrec = 1 << 30

// Run is the seq command.
func Run(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	// Options end at the first operand or at an argument that looks like
	// a negative number ("-1", "-.5"); option arguments are skipped.
	end := len(args)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) > 1 && a[0] == '-' && (a[1] == '.' || isDigit(a[1])) {
			end = i
			break
		}
		if a == "--" || len(a) < 2 || a[0] != '-' {
			end = i
			if a == "--" {
				end = i + 1
			}
			break
		}
		if strings.HasPrefix(a, "--") {
			if !strings.Contains(a, "=") {
				name := a[2:]
				if name != "" && (strings.HasPrefix("format", name) || strings.HasPrefix("separator", name)) && !strings.HasPrefix("equal-width", name) {
					i++
				}
			}
			continue
		}
		// A cluster of short options: -w, -f ARG, -s ARG.
		for j := 1; j < len(a); j++ {
			if a[j] == 'f' || a[j] == 's' {
				if j == len(a)-1 {
					i++
				}
				break
			}
		}
	}
	if end > len(args) {
		end = len(args)
	}
	sub := *c
	sub.Args = append([]string{c.Args[0]}, args[:end]...)
	set := builtins.Options{List: options, StopAtOperand: true}
	opts, operands, code, done := textio.ParseWith(&sub, set, help, 1)
	if done {
		return code
	}
	operands = append(operands, args[end:]...)

	var format string
	hasFormat := false
	separator := "\n"
	equalWidth := false
	for _, o := range opts {
		switch o.Key {
		case "format":
			format, hasFormat = o.Value, true
		case "separator":
			separator = o.Value
		case "equal-width":
			equalWidth = true
		}
	}
	if len(operands) < 1 {
		c.Errorf("missing operand")
		c.TryHelp(0)
		return 1
	}
	if len(operands) > 3 {
		c.Errorf("extra operand %s", quote.New(c).Q(operands[3]))
		c.TryHelp(0)
		return 1
	}
	var lay layout
	if hasFormat {
		var msg string
		lay, msg = checkFormat(c, format)
		if msg != "" {
			c.Errorf("%s", msg)
			return 1
		}
		if equalWidth {
			c.Errorf("format string may not be specified when printing equal width strings")
			c.TryHelp(0)
			return 1
		}
	}

	w := textio.NewWriter(c.Stdout)
	n := len(operands)
	simple := !equalWidth && !hasFormat && len(separator) == 1
	if simple && allDigits(operands[0]) && (n == 1 || allDigits(operands[1])) &&
		(n < 3 || (fastStepOK(operands[1]) && allDigits(operands[2]))) {
		first, last, step := "1", operands[n-1], uint64(1)
		if n > 1 {
			first = operands[0]
		}
		if n == 3 {
			step = smallUint(operands[1])
		}
		return fast(ctx, c, w, first, last, step, separator)
	}

	var first, step, last operand
	first = operand{value: newLD().SetInt64(1), width: 1, precision: 0}
	step = first
	var ok bool
	if last, ok = scanArg(c, operands[0]); !ok {
		return 1
	}
	if n > 1 {
		first = last
		if last, ok = scanArg(c, operands[1]); !ok {
			return 1
		}
		if n > 2 {
			step = last
			if step.value.Sign() == 0 {
				c.Errorf("invalid Zero increment value: %s", quote.New(c).Q(operands[1]))
				c.TryHelp(0)
				return 1
			}
			if last, ok = scanArg(c, operands[2]); !ok {
				return 1
			}
		}
	}

	// The fast path again, for integers written like 1e1, or an infinite
	// LAST.
	if first.precision == 0 && step.precision == 0 && last.precision == 0 &&
		!first.value.IsInf() && first.value.Sign() >= 0 && last.value.Sign() >= 0 &&
		step.value.Sign() > 0 && step.value.Cmp(newLD().SetInt64(fastStepLimit)) <= 0 && simple {
		s1 := first.value.Text('f', 0)
		s2 := "inf"
		if !last.value.IsInf() {
			s2 = last.value.Text('f', 0)
		}
		if s1[0] != '-' && s2[0] != '-' {
			st, _ := step.value.Uint64()
			return fast(ctx, c, w, s1, s2, st, separator)
		}
	}

	var sp cfmt.Spec
	if hasFormat {
		sp, _ = parseSpec(format[lay.specStart:])
	} else {
		sp = defaultSpec(first, step, last, equalWidth)
		lay = layout{prefix: "", suffix: ""}
	}
	return printNumbers(ctx, c, w, sp, lay, first.value, step.value, last.value, separator)
}

func fastStepOK(s string) bool {
	if !allDigits(s) {
		return false
	}
	v := smallUint(s)
	return v > 0 && v <= fastStepLimit
}

// smallUint parses a digit string, saturating far above fastStepLimit.
func smallUint(s string) uint64 {
	var v uint64
	for i := 0; i < len(s); i++ {
		v = v*10 + uint64(s[i]-'0')
		if v > 1<<32 {
			return 1 << 32
		}
	}
	return v
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// scanArg is GNU's scan_arg: the value, and the width and precision the
// operand would print with.
func scanArg(c *builtins.Call, arg string) (operand, bool) {
	v, isNaN, ok := parseLD(arg)
	if !ok {
		c.Errorf("invalid floating point argument: %s", quote.New(c).Q(arg))
		c.TryHelp(0)
		return operand{}, false
	}
	if isNaN {
		c.Errorf("invalid %s argument: %s", quote.New(c).Q("not-a-number"), quote.New(c).Q(arg))
		c.TryHelp(0)
		return operand{}, false
	}
	ret := operand{value: v, precision: autoPrec}
	a := strings.TrimLeft(arg, " \t\n\v\f\r+")
	dot := strings.IndexByte(a, '.')
	if dot < 0 && !strings.ContainsRune(a, 'p') {
		ret.precision = 0
	}
	if !strings.ContainsAny(a, "xX") && !v.IsInf() {
		fractionLen := 0
		ret.width = len(a)
		if dot >= 0 {
			rest := a[dot+1:]
			fractionLen = strings.IndexAny(rest, "eE")
			if fractionLen < 0 {
				fractionLen = len(rest)
			}
			ret.precision = fractionLen
			switch {
			case fractionLen == 0:
				ret.width--
			case dot == 0 || !isDigit(a[dot-1]):
				ret.width++
			}
		}
		e := strings.IndexByte(a, 'e')
		if e < 0 {
			e = strings.IndexByte(a, 'E')
		}
		if e >= 0 {
			exponent := int64(atoiSigned(clampExp(a[e+1:])))
			if exponent < 0 {
				ret.precision += int(-exponent)
			} else {
				ret.precision -= int(min(int64(ret.precision), exponent))
			}
			ret.width -= len(a) - e
			if exponent < 0 {
				if dot >= 0 {
					if e == dot+1 {
						ret.width++
					}
				} else {
					ret.width++
				}
				exponent = -exponent
			} else {
				if dot >= 0 && ret.precision == 0 && fractionLen > 0 {
					ret.width--
				}
				exponent -= min(int64(fractionLen), exponent)
			}
			ret.width += int(exponent)
		}
	}
	return ret, true
}

// clampExp keeps an exponent's digits within int range, as strtol would
// saturate.
func clampExp(s string) string {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	digits := strings.TrimLeft(s[i:j], "0")
	if len(digits) > 9 {
		digits = "999999999"
	}
	if digits == "" {
		digits = "0"
	}
	return s[:i] + digits
}

// defaultSpec is GNU's get_default_format.
func defaultSpec(first, step, last operand, equalWidth bool) cfmt.Spec {
	prec := max(first.precision, step.precision)
	if prec != autoPrec && prec < autoPrec && last.precision < autoPrec {
		if equalWidth {
			firstWidth := first.width + (prec - first.precision)
			lastWidth := last.width + (prec - last.precision)
			if last.precision != 0 && prec == 0 {
				lastWidth--
			}
			if last.precision == 0 && prec != 0 {
				lastWidth++
			}
			if first.precision == 0 && prec != 0 {
				firstWidth++
			}
			return cfmt.Spec{Zero: true, Width: max(firstWidth, lastWidth), Prec: prec, Verb: 'f'}
		}
		return cfmt.Spec{Width: -1, Prec: prec, Verb: 'f'}
	}
	return cfmt.Spec{Width: -1, Prec: -1, Verb: 'g'}
}

// layout is a user format: the text around its one conversion.
type layout struct {
	prefix, suffix string
	specStart      int
}

// checkFormat validates a --format the way GNU's long_double_format does
// and splits it around its conversion.
func checkFormat(c *builtins.Call, f string) (layout, string) {
	var prefix strings.Builder
	i := 0
	for {
		if i >= len(f) {
			return layout{}, "format " + quote.New(c).Q(f) + " has no % directive"
		}
		if f[i] == '%' {
			if i+1 < len(f) && f[i+1] == '%' {
				prefix.WriteByte('%')
				i += 2
				continue
			}
			break
		}
		prefix.WriteByte(f[i])
		i++
	}
	start := i + 1
	_, n := parseSpec(f[start:])
	i = start + n
	if i >= len(f) {
		return layout{}, "format " + quote.New(c).Q(f) + " ends in %"
	}
	if strings.IndexByte("efgaEFGA", f[i]) < 0 {
		return layout{}, "format " + quote.New(c).Q(f) + " has unknown %" + string(f[i]) + " directive"
	}
	var suffix strings.Builder
	for i++; i < len(f); {
		if f[i] == '%' {
			if i+1 < len(f) && f[i+1] == '%' {
				suffix.WriteByte('%')
				i += 2
				continue
			}
			return layout{}, "format " + quote.New(c).Q(f) + " has too many % directives"
		}
		suffix.WriteByte(f[i])
		i++
	}
	return layout{prefix: prefix.String(), suffix: suffix.String(), specStart: start}, ""
}

func printNumbers(ctx context.Context, c *builtins.Call, w *bufio.Writer, sp cfmt.Spec, lay layout, first, step, last *big.Float, sep string) int {
	outOfRange := func(x *big.Float) bool {
		if step.Sign() < 0 {
			return x.Cmp(last) < 0
		}
		return last.Cmp(x) < 0
	}
	if outOfRange(first) {
		return 0
	}
	x := newLD().Set(first)
	prod := newLD()
	i := newLD()
	one := newLD().SetInt64(1)
	i.SetInt64(1)
	for n := 0; ; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return textio.Finish(c, w, 1)
		}
		x0 := x
		s0 := format(sp, x0)
		w.WriteString(lay.prefix)
		w.WriteString(s0)
		if _, err := w.WriteString(lay.suffix); err != nil {
			return textio.WriteFailed(c, err)
		}
		prod.Mul(i, step)
		x = newLD().Add(first, prod)
		i.Add(i, one)
		if outOfRange(x) {
			// Print the number just past LAST if it prints as LAST and
			// differently from the previous number (rounding errors).
			xs := format(sp, x)
			v, _, ok := parseLD(xs)
			if !(ok && v != nil && v.Cmp(last) == 0 && xs != s0) {
				break
			}
		}
		w.WriteString(sep)
	}
	w.WriteString("\n")
	return textio.Finish(c, w, 0)
}

// fast prints the integers from a to b (digit strings; b may be "inf")
// in steps of step, exactly.
func fast(ctx context.Context, c *builtins.Call, w *bufio.Writer, a, b string, step uint64, sep string) int {
	inf := b == "inf"
	p := []byte(trimZeros0(a))
	q := []byte(trimZeros0(b))
	if !inf && cmpDigits(p, q) > 0 {
		return 0
	}
	if _, err := w.Write(p); err != nil {
		return textio.WriteFailed(c, err)
	}
	for n := 0; ; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return textio.Finish(c, w, 1)
		}
		p = addSmall(p, step)
		if !inf && cmpDigits(p, q) > 0 {
			break
		}
		w.WriteString(sep)
		if _, err := w.Write(p); err != nil {
			return textio.WriteFailed(c, err)
		}
	}
	w.WriteString("\n")
	return textio.Finish(c, w, 0)
}

func trimZeros0(s string) string {
	t := strings.TrimLeft(s, "0")
	if t == "" && s != "" {
		return "0"
	}
	return t
}

func cmpDigits(a, b []byte) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(string(a), string(b))
}

// addSmall adds n to the decimal digit string p.
func addSmall(p []byte, n uint64) []byte {
	carry := n
	for i := len(p) - 1; i >= 0 && carry > 0; i-- {
		d := uint64(p[i]-'0') + carry
		p[i] = byte('0' + d%10)
		carry = d / 10
	}
	for carry > 0 {
		p = append([]byte{byte('0' + carry%10)}, p...)
		carry /= 10
	}
	return p
}
