// Package bc implements GNU bc 1.07.1: arbitrary-precision arithmetic
// with variables, arrays, functions, if/while/for, print and strings, the
// -l math library, ibase/obase/scale and output split at BC_LINE_LENGTH.
//
// Programs are compiled to the byte code GNU bc's grammar generates and
// run by a machine that behaves as GNU's does, so that output, warnings
// and run-time error messages (whose addresses are byte-code offsets)
// match. The math library functions s c a l e j are computed natively
// to the requested scale (truncated, as GNU's are).
package bc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/bcnum"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'h', Long: "help"}, {Short: 'i', Long: "interactive"}, {Short: 'l', Long: "mathlib"},
	{Short: 'q', Long: "quiet"}, {Short: 's', Long: "standard"}, {Short: 'w', Long: "warn"},
	{Short: 'v', Long: "version"},
}}

const usage = `usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
`

// bc is one run.
type bc struct {
	ctx  context.Context
	c    *builtins.Call
	out  *textfmt.Output
	prog *program
	vm   *vm
	ld   *loader

	col, lineSize int
	stdOnly, warn bool
	lex           *lexer

	hadError, didGen bool
	unavailable      bool // a file operand could not be read: stop at once
	halted, quit     bool
	cancelled        bool
	input            *bufio.Reader // standard input, for read()
}

// Run runs bc.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(c.Args[1:])
	if err != nil {
		c.Errorf("%s", err.Error())
		fmt.Fprint(c.Stdout, usage)
		return 1
	}
	b := &bc{ctx: ctx, c: c, out: textfmt.NewOutput(c.Stdout), prog: newProgram(), lineSize: 70}
	mathlib := false
	for _, o := range opts {
		switch o.Key {
		case "help":
			fmt.Fprint(c.Stdout, usage)
			return 0
		case "version":
			return c.Version()
		case "mathlib":
			mathlib = true
		case "standard":
			b.stdOnly = true
		case "warn":
			b.warn = true
		}
	}
	if v, ok := c.LookupEnv("BC_LINE_LENGTH"); ok {
		n, _ := strconv.Atoi(strings.TrimSpace(leadingInt(v)))
		b.lineSize = n
		if n < 3 && n != 0 {
			b.lineSize = 70
		}
	}
	b.vm = newVM(b)
	b.ld = &loader{prog: b.prog, disabled: func() bool { return b.hadError }}
	if mathlib {
		b.loadMathLib()
	}
	st := b.runAll(files)
	return b.out.Finish(c, st)
}

// leadingInt is the prefix atoi would read.
func leadingInt(s string) string {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i == 1 && (s[0] == '-' || s[0] == '+') {
		return "0"
	}
	return s[:i]
}

func (b *bc) runAll(files []string) int {
	b.input = bufio.NewReaderSize(b.c.Stdin, textfmt.BufSize)
	next := 0
	stdinDone := false
	unavailable := false
	more := func(l *lexer) bool {
		if next < len(files) {
			name := files[next]
			next++
			data, err := b.readFile(name)
			if err != nil {
				b.flushOut()
				fmt.Fprintf(b.c.Stderr, "File %s is unavailable.\n", name)
				unavailable = true
				b.unavailable = true
				return false
			}
			l.src, l.pos, l.line, l.name = data, 0, 1, name
			return true
		}
		if stdinDone {
			return false
		}
		stdinDone = true
		data, _ := io.ReadAll(b.input)
		l.src, l.pos, l.line, l.name = string(data), 0, 1, "(standard_in)"
		return true
	}
	l := &lexer{more: more}
	l.report = func(line int, msg string) {
		if line < 0 {
			b.errText(msg + "\n")
			return
		}
		b.yyerror(line, msg)
	}
	b.lex = l
	p := &parser{bc: b, lex: l}
	p.run()
	if unavailable {
		return 1
	}
	return b.status()
}

func (b *bc) status() int {
	if b.cancelled {
		return 130
	}
	return 0
}

func (b *bc) readFile(name string) (string, error) {
	f, err := b.c.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return "", fmt.Errorf("is a directory")
	}
	data, err := io.ReadAll(f)
	return string(data), err
}

func (b *bc) stopped() bool {
	return b.halted || b.quit || b.cancelled || b.out.Failed() || b.ctx.Err() != nil
}

func (b *bc) flushOut() { b.out.Flush() }

func (b *bc) errText(s string) {
	b.flushOut()
	fmt.Fprint(b.c.Stderr, s)
}

func (b *bc) yyerror(line int, msg string) {
	b.flushOut()
	fmt.Fprintf(b.c.Stderr, "%s %d: %s\n", b.lex.name, line, msg)
	b.hadError = true
}

func (b *bc) ctWarn(line int, msg string) {
	switch {
	case b.stdOnly:
		b.flushOut()
		fmt.Fprintf(b.c.Stderr, "%s %d: Error: %s\n", b.lex.name, line, msg)
		b.hadError = true
	case b.warn:
		b.flushOut()
		fmt.Fprintf(b.c.Stderr, "%s %d: (Warning) %s\n", b.lex.name, line, msg)
	}
}

func (b *bc) generate(s string) {
	b.didGen = true
	b.ld.load(s)
}

func (b *bc) initGen() {
	b.prog.clearFunc(0)
	b.prog.funcs[0].defined = true
	b.ld.fn = 0
	b.ld.inString, b.ld.inConst = false, false
	b.hadError = false
	b.didGen = false
}

// runCode runs the main code of a complete input item.
func (b *bc) runCode() {
	if !b.hadError && b.didGen {
		b.vm.execute()
	}
	if !b.didGen {
		b.hadError = false
	}
}

// outChar writes one character of a number, splitting long lines with a
// backslash as GNU bc does.
func (b *bc) outChar(ch byte) { b.put(ch, true) }

// outSchar writes one character of a string: with -s (POSIX only) long
// lines are not split.
func (b *bc) outSchar(ch byte) { b.put(ch, !b.stdOnly) }

func (b *bc) put(ch byte, split bool) {
	if ch == '\n' {
		b.col = 0
		b.out.WriteByte('\n')
		return
	}
	if split {
		b.col++
		if b.col == b.lineSize-1 && b.lineSize != 0 {
			b.out.WriteString("\\\n")
			b.col = 1
		}
	}
	b.out.WriteByte(ch)
}

func (b *bc) outString(s string) {
	for i := 0; i < len(s); i++ {
		b.outChar(s[i])
	}
}

// outNum prints a number in obase.
func (b *bc) outNum(n num, obase int) {
	b.outString(bcnum.Format(n, obase, func() bool { return b.ctx.Err() != nil }))
}

func (b *bc) limits() {
	b.out.WriteString("BC_BASE_MAX     = 2147483647\n" +
		"BC_DIM_MAX      = 16777215\n" +
		"BC_SCALE_MAX    = 2147483647\n" +
		"BC_STRING_MAX   = 2147483647\n" +
		"MAX Exponent    = 9223372036854775807\n" +
		"Number of vars  = 32767\n")
}

func (b *bc) warranty() {
	b.out.WriteString("\nbc (bashbox) " + builtins.ReleaseVersion + "\n\n" +
		"    This is free software; it comes with ABSOLUTELY NO WARRANTY.\n\n")
}

// readNumber is read(): a number from standard input in ibase.
func (b *bc) readNumber(base int) num {
	next := func() byte {
		c, err := b.input.ReadByte()
		if err != nil {
			return ':'
		}
		if c == '\\' {
			c2, err := b.input.ReadByte()
			if err == nil && c2 == '\n' {
				c, err = b.input.ReadByte()
				if err != nil {
					return ':'
				}
				b.col = 0
			} else if err == nil {
				b.input.UnreadByte()
			}
		}
		switch {
		case c >= '0' && c <= '9':
			return c - '0'
		case c >= 'A' && c <= 'Z':
			return c + 10 - 'A'
		case c >= 'a' && c <= 'z':
			return c + 10 - 'a'
		case c == '.' || c == '+' || c == '-':
			return c
		case c == '~':
			return ':'
		case c <= ' ':
			return '~'
		}
		return ':'
	}
	return b.vm.parseConst(next, base)
}
