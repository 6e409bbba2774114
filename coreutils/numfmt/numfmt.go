// Package numfmt implements GNU numfmt: convert numbers to and from
// human-readable forms (SI and IEC suffixes), with field selection,
// padding, rounding modes and a printf-style --format. Arithmetic follows
// GNU's x86 long double (64-bit significand) step by step, so rounding
// matches the GNU tool.
package numfmt

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fieldlist"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

type scale int

const (
	scaleNone scale = iota
	scaleAuto
	scaleSI
	scaleIEC
	scaleIECI
)

type roundMode int

const (
	roundUp roundMode = iota
	roundDown
	roundFromZero
	roundTowardsZero
	roundNearest
)

type invalidMode int

const (
	invalAbort invalidMode = iota
	invalFail
	invalWarn
	invalIgnore
)

// parse errors of a number
type sse int

const (
	sseOK sse = iota
	ssePrecisionLoss
	sseOverflow
	sseInvalidNumber
	sseForbiddenSuffix
	sseInvalidSuffix
	sseMissingI
)

const (
	maxUnscaledDigits   = 18 // LDBL_DIG
	maxAcceptableDigits = 27
)

var options = builtins.Options{List: []builtins.Option{
	{Long: "from", Arg: builtins.RequiredArg}, {Long: "from-unit", Arg: builtins.RequiredArg},
	{Long: "to", Arg: builtins.RequiredArg}, {Long: "to-unit", Arg: builtins.RequiredArg},
	{Long: "round", Arg: builtins.RequiredArg}, {Long: "padding", Arg: builtins.RequiredArg},
	{Long: "suffix", Arg: builtins.RequiredArg}, {Long: "grouping"},
	{Short: 'd', Long: "delimiter", Arg: builtins.RequiredArg}, {Long: "field", Arg: builtins.RequiredArg},
	{Long: "debug"}, {Long: "header", Arg: builtins.OptionalArg},
	{Long: "format", Arg: builtins.RequiredArg}, {Long: "invalid", Arg: builtins.RequiredArg},
	{Short: 'z', Long: "zero-terminated"}, {Long: "help"}, {Long: "version"},
}}

// fatal ends the command with a message and status.
type fatal struct{ status int }

type numfmt struct {
	c   *builtins.Call
	out *textfmt.Output

	from, to         scale
	round            roundMode
	inval            invalidMode
	suffix           string
	hasSuffix        bool
	fromUnit, toUnit uint64
	grouping         bool
	padding          int // width; 0 for none
	padLeft          bool
	zeroPad          int
	userPrec         int // -1 unless --format gave one
	fmtPrefix        string
	fmtSuffix        string
	fields           []fieldlist.Range // nil: field 1
	delim            int               // -1: blanks
	autoPad          bool
	debug            bool
	convExit         int // status of conversion errors that stop (2), or 0
}

func (n *numfmt) die(status int, format string, a ...any) {
	n.c.Errorf(format, a...)
	panic(fatal{status})
}

func (n *numfmt) usageDie(format string, a ...any) {
	n.c.Errorf(format, a...)
	n.c.TryHelp(1)
	panic(fatal{1})
}

// convError reports a conversion error; in abort mode it ends the run.
func (n *numfmt) convError(format string, a ...any) {
	if n.inval == invalIgnore {
		return
	}
	n.c.Errorf(format, a...)
	if n.convExit != 0 {
		panic(fatal{n.convExit})
	}
}

// Run converts the operands, or the lines of standard input.
func Run(ctx context.Context, c *builtins.Call) (status int) {
	n := &numfmt{c: c, round: roundFromZero, fromUnit: 1, toUnit: 1, userPrec: -1, delim: -1, convExit: 2}
	n.out = textfmt.NewOutput(c.Stdout)
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(fatal)
			if !ok {
				panic(r)
			}
			status = n.out.Finish(c, f.status)
		}
	}()
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	var header uint64
	var format string
	hasFormat, fieldsSet := false, false
	lineDelim := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "from":
			v, ok := argmatch.Get(c, o.Value, "--from", scaleChoices(true), 1)
			if !ok {
				return 1
			}
			n.from = scale(v)
		case "to":
			v, ok := argmatch.Get(c, o.Value, "--to", scaleChoices(false), 1)
			if !ok {
				return 1
			}
			n.to = scale(v)
		case "from-unit":
			n.fromUnit = n.unitSize(o.Value)
		case "to-unit":
			n.toUnit = n.unitSize(o.Value)
		case "round":
			v, ok := argmatch.Get(c, o.Value, "--round", []argmatch.Choice{
				{Names: []string{"up"}, Value: int(roundUp)}, {Names: []string{"down"}, Value: int(roundDown)},
				{Names: []string{"from-zero"}, Value: int(roundFromZero)},
				{Names: []string{"towards-zero"}, Value: int(roundTowardsZero)},
				{Names: []string{"nearest"}, Value: int(roundNearest)}}, 1)
			if !ok {
				return 1
			}
			n.round = roundMode(v)
		case "invalid":
			v, ok := argmatch.Get(c, o.Value, "--invalid", []argmatch.Choice{
				{Names: []string{"abort"}, Value: int(invalAbort)}, {Names: []string{"fail"}, Value: int(invalFail)},
				{Names: []string{"warn"}, Value: int(invalWarn)}, {Names: []string{"ignore"}, Value: int(invalIgnore)}}, 1)
			if !ok {
				return 1
			}
			n.inval = invalidMode(v)
		case "grouping":
			n.grouping = true
		case "padding":
			v, _, ok := textfmt.DecToInt(o.Value, math.MinInt64, math.MaxInt64)
			if !ok || v == 0 {
				n.die(1, "invalid padding value %s", utilcmd.Q(c, o.Value))
			}
			n.padLeft = v < 0
			if v < 0 {
				v = -v
			}
			n.padding = int(min(v, 1<<20))
		case "field":
			if fieldsSet {
				n.die(1, "multiple field specifications")
			}
			fieldsSet = true
			n.fields = n.setFields(o.Value)
		case "delimiter":
			if len(o.Value) > 1 {
				n.die(1, "the delimiter must be a single character")
			}
			n.delim = 0
			if o.Value != "" {
				n.delim = int(o.Value[0])
			}
		case "zero-terminated":
			lineDelim = 0
		case "suffix":
			n.suffix, n.hasSuffix = o.Value, true
		case "debug":
			n.debug = true
		case "header":
			header = 1
			if o.Has {
				v, err := strconv.ParseUint(strings.TrimLeft(o.Value, " \t\n\v\f\r"), 10, 64)
				if err != nil || v == 0 {
					n.die(1, "invalid header value %s", utilcmd.Q(c, o.Value))
				}
				header = v
			}
		case "format":
			format, hasFormat = o.Value, true
		case "help":
			return textfmt.Help(c, helpText(c.Name()))
		case "version":
			return c.Version()
		}
	}
	if hasFormat && n.grouping {
		n.die(1, "--grouping cannot be combined with --format")
	}
	if n.debug && n.from == scaleNone && n.to == scaleNone && !n.grouping && n.padding == 0 && !hasFormat {
		c.Errorf("no conversion option specified")
	}
	if hasFormat {
		n.parseFormat(format)
	}
	if n.grouping && n.to != scaleNone {
		n.die(1, "grouping cannot be combined with --to")
	}
	n.autoPad = n.padding == 0 && n.delim < 0
	if n.inval != invalAbort {
		n.convExit = 0
	}
	valid := true
	if len(operands) > 0 {
		if n.debug && header > 0 {
			c.Errorf("--header ignored with command-line input")
		}
		for _, op := range operands {
			valid = n.line(op, true) && valid
			n.out.WriteByte(lineDelim)
		}
	} else {
		br := bufio.NewReaderSize(c.Stdin, textfmt.BufSize)
		var tick textfmt.Tick
		for {
			if tick.Stop(ctx) {
				n.out.Flush()
				return 130
			}
			line, err := br.ReadString(lineDelim)
			if line == "" {
				if err != nil && err != io.EOF {
					c.Errorf("error reading input: %s", builtins.ErrText(err))
				}
				break
			}
			if header > 0 {
				header--
				n.out.WriteString(line)
				continue
			}
			newline := line[len(line)-1] == lineDelim
			if newline {
				line = line[:len(line)-1]
			}
			valid = n.line(line, newline) && valid
			if newline {
				n.out.WriteByte(lineDelim)
			}
			if n.out.Failed() {
				break
			}
		}
	}
	if n.debug && !valid {
		c.Errorf("failed to convert some of the input numbers")
	}
	st := 0
	if !valid && n.inval != invalWarn && n.inval != invalIgnore {
		st = 2
	}
	return n.out.Finish(c, st)
}

func scaleChoices(from bool) []argmatch.Choice {
	ch := []argmatch.Choice{{Names: []string{"none"}, Value: int(scaleNone)}}
	if from {
		ch = append(ch, argmatch.Choice{Names: []string{"auto"}, Value: int(scaleAuto)})
	}
	return append(ch, argmatch.Choice{Names: []string{"si"}, Value: int(scaleSI)},
		argmatch.Choice{Names: []string{"iec"}, Value: int(scaleIEC)},
		argmatch.Choice{Names: []string{"iec-i"}, Value: int(scaleIECI)})
}

// unitSize reads --from-unit/--to-unit: digits with an optional suffix,
// K=1000, Ki=1024.
func (n *numfmt) unitSize(s string) uint64 {
	bad := func() uint64 {
		n.die(1, "invalid unit size: %s", utilcmd.Q(n.c, s))
		return 0
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return bad()
	}
	v, err := strconv.ParseUint(s[:i], 10, 64)
	if err != nil {
		return bad()
	}
	rest := s[i:]
	if rest != "" {
		p := strings.IndexByte("KMGTPEZY", rest[0])
		if p < 0 {
			return bad()
		}
		base := uint64(1000)
		switch rest[1:] {
		case "":
		case "i":
			base = 1024
		default:
			return bad()
		}
		for k := 0; k <= p; k++ {
			hi, lo := mulOverflow(v, base)
			if hi {
				return bad()
			}
			v = lo
		}
	}
	if v == 0 {
		return bad()
	}
	return v
}

func mulOverflow(a, b uint64) (bool, uint64) {
	if a != 0 && b > math.MaxUint64/a {
		return true, 0
	}
	return false, a * b
}

// setFields parses a cut-style field list ("-" is every field).
func (n *numfmt) setFields(s string) []fieldlist.Range {
	if s == "-" {
		return []fieldlist.Range{{Lo: 1, Hi: math.MaxUint64}}
	}
	rs, msg := fieldlist.Parse(s, false, false, func(t string) string { return utilcmd.Q(n.c, t) })
	if msg != "" {
		n.usageDie("%s", msg)
	}
	return rs
}

// parseFormat reads --format: one %[0]['][-][N][.N]f directive with an
// optional prefix and suffix.
func (n *numfmt) parseFormat(f string) {
	q := utilcmd.Q(n.c, f)
	i := 0
	// GNU counts a "%%" as one byte of prefix, and prints prefix and
	// suffix as they are written: emulated.
	prefixLen := 0
	for !(i < len(f) && f[i] == '%' && (i+1 >= len(f) || f[i+1] != '%')) {
		if i >= len(f) {
			n.die(1, "format %s has no %% directive", q)
		}
		if f[i] == '%' {
			i += 2
		} else {
			i++
		}
		prefixLen++
	}
	i++
	zero := false
	for {
		skip := 0
		for i+skip < len(f) && f[i+skip] == ' ' {
			skip++
		}
		i += skip
		if i < len(f) && f[i] == '\'' {
			n.grouping = true
			i++
		} else if i < len(f) && f[i] == '0' {
			zero = true
			i++
		} else if skip == 0 {
			break
		}
	}
	// strtol: optional blanks and sign, digits.
	j := i
	for j < len(f) && (f[j] == ' ' || f[j] >= '\t' && f[j] <= '\r') {
		j++
	}
	if j < len(f) && (f[j] == '-' || f[j] == '+') {
		j++
	}
	k := j
	for k < len(f) && f[k] >= '0' && f[k] <= '9' {
		k++
	}
	if k > j {
		pad, err := strconv.ParseInt(strings.TrimSpace(f[i:k]), 10, 64)
		if err != nil {
			n.die(1, "invalid format %s (width overflow)", q)
		}
		if pad != 0 {
			if n.debug && n.padding != 0 && !(zero && pad > 0) {
				n.c.Errorf("--format padding overriding --padding")
			}
			switch {
			case pad < 0:
				n.padLeft = true
				n.padding = int(min(-pad, 1<<20))
			case zero:
				n.zeroPad = int(min(pad, 1<<20))
			default:
				n.padding = int(min(pad, 1<<20))
			}
		}
		i = k
	}
	if i >= len(f) {
		n.die(1, "format %s ends in %%", q)
	}
	if f[i] == '.' {
		i++
		j := i
		if j < len(f) && (f[j] == '-' || f[j] == '+' || f[j] == ' ' || f[j] == '\t') {
			n.die(1, "invalid precision in format %s", q)
		}
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		p, err := strconv.ParseInt(f[i:j], 10, 64)
		if j == i {
			p, err = 0, nil
		}
		if err != nil || p > 1<<20 {
			n.die(1, "invalid precision in format %s", q)
		}
		n.userPrec = int(p)
		i = j
	}
	if i >= len(f) || f[i] != 'f' {
		n.die(1, "invalid format %s, directive must be %%[0]['][-][N][.][N]f", q)
	}
	i++
	suffixPos := i
	for i < len(f) {
		if f[i] == '%' && (i+1 >= len(f) || f[i+1] != '%') {
			n.die(1, "format %s has too many %% directives", q)
		}
		if f[i] == '%' {
			i += 2
		} else {
			i++
		}
	}
	n.fmtPrefix = f[:prefixLen]
	n.fmtSuffix = f[suffixPos:]
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

func (n *numfmt) fieldSep(b byte) bool { return isBlank(b) || b == '\n' }

func (n *numfmt) included(field uint64) bool {
	if n.fields == nil {
		return field == 1
	}
	return fieldlist.Contains(n.fields, field)
}

// line converts the selected fields of one line.
func (n *numfmt) line(s string, newline bool) bool {
	valid := true
	field := uint64(0)
	for {
		field++
		end := 0
		if n.delim >= 0 {
			for end < len(s) && int(s[end]) != n.delim {
				end++
			}
		} else {
			for end < len(s) && n.fieldSep(s[end]) {
				end++
			}
			for end < len(s) && !n.fieldSep(s[end]) {
				end++
			}
		}
		text := s[:end]
		if !n.field(text, field) {
			valid = false
		}
		if end >= len(s) {
			break
		}
		if n.delim >= 0 {
			n.out.WriteByte(byte(n.delim))
		} else {
			n.out.WriteByte(' ')
		}
		s = s[end+1:]
	}
	return valid
}

func (n *numfmt) field(text string, field uint64) bool {
	if !n.included(field) {
		n.out.WriteString(text)
		return true
	}
	if s, ok := n.convert(text, field); ok {
		n.out.WriteString(n.fmtPrefix)
		n.out.WriteString(s)
		n.out.WriteString(n.fmtSuffix)
		return true
	}
	n.out.WriteString(text)
	return false
}

func helpText(name string) string {
	return fmt.Sprintf(`Usage: %[1]s [OPTION]... [NUMBER]...
Reformat NUMBER(s), or the numbers from standard input if none are specified.

Mandatory arguments to long options are mandatory for short options too.
      --debug          print warnings about invalid input
  -d, --delimiter=X    use X instead of whitespace for field delimiter
      --field=FIELDS   replace the numbers in these input fields (default=1);
                         see FIELDS below
      --format=FORMAT  use printf style floating-point FORMAT;
                         see FORMAT below for details
      --from=UNIT      auto-scale input numbers to UNITs; default is 'none';
                         see UNIT below
      --from-unit=N    specify the input unit size (instead of the default 1)
      --grouping       use locale-defined grouping of digits, e.g. 1,000,000
                         (which means it has no effect in the C/POSIX locale)
      --header[=N]     print (without converting) the first N header lines;
                         N defaults to 1 if not specified
      --invalid=MODE   failure mode for invalid numbers: MODE can be:
                         abort (default), fail, warn, ignore
      --padding=N      pad the output to N characters; positive N will
                         right-align; negative N will left-align;
                         padding is ignored if the output is wider than N;
                         the default is to automatically pad if a whitespace
                         is found
      --round=METHOD   use METHOD for rounding when scaling; METHOD can be:
                         up, down, from-zero (default), towards-zero, nearest
      --suffix=SUFFIX  add SUFFIX to output numbers, and accept optional
                         SUFFIX in input numbers
      --to=UNIT        auto-scale output numbers to UNITs; see UNIT below
      --to-unit=N      the output unit size (instead of the default 1)
  -z, --zero-terminated    line delimiter is NUL, not newline
%[2]s
UNIT options:
  none       no auto-scaling is done; suffixes will trigger an error
  auto       accept optional single/two letter suffix:
               1K = 1000,
               1Ki = 1024,
               1M = 1000000,
               1Mi = 1048576,
  si         accept optional single letter suffix:
               1K = 1000,
               1M = 1000000,
               ...
  iec        accept optional single letter suffix:
               1K = 1024,
               1M = 1048576,
               ...
  iec-i      accept optional two-letter suffix:
               1Ki = 1024,
               1Mi = 1048576,
               ...

FIELDS supports cut(1) style field ranges:
  N    N'th field, counted from 1
  N-   from N'th field, to end of line
  N-M  from N'th to M'th field (inclusive)
  -M   from first to M'th field (inclusive)
  -    all fields
Multiple fields/ranges can be separated with commas

FORMAT must be suitable for printing one floating-point argument '%%f'.
Optional quote (%%'f) will enable --grouping (if supported by current locale).
Optional width value (%%10f) will pad output. Optional zero (%%010f) width
will zero pad the number. Optional negative values (%%-10f) will left align.
Optional precision (%%.1f) will override the input determined precision.

Exit status is 0 if all input numbers were successfully converted.
By default, %[1]s will stop at the first conversion error with exit status 2.
With --invalid='fail' a warning is printed for each conversion error
and the exit status is 2.  With --invalid='warn' each conversion error is
diagnosed, but the exit status is 0.  With --invalid='ignore' conversion
errors are not diagnosed and the exit status is 0.
`, name, utilcmd.Trailer())
}
