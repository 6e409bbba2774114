// Package awk implements awk (also gawk and mawk) on goawk's parser and
// interpreter, with every file, pipe and command going through the
// sandbox (see rewrite.go). Output conventions and messages follow GNU
// awk 5.2.
//
// Known differences from gawk, all from goawk's interpreter:
//   - integral numbers beyond 2^63 print in %.6g form (gawk prints all
//     digits); octal and hex constants in the source (017, 0x11) are
//     decimal;
//   - for (k in a) visits keys in goawk's (random) order;
//   - printf with too few arguments, $(-1) and a few other run-time
//     errors have goawk's wording;
//   - assigning FILENAME does not change what FILENAME reads, and changes
//     to ARGV after the BEGIN rules do not change the input files;
//   - commands run by system(), "cmd" | getline and print | "cmd" get an
//     empty standard input (the sandbox shell copies its input eagerly and
//     would take awk's own input);
//   - strftime and mktime work in UTC;
//   - the default FS also splits at \r, \v, \f and Unicode spaces (gawk:
//     blanks and newlines only), and a change of RS applies from the
//     next input file on. Records keep the \r of \r\n line ends as
//     gawk's do (see keepCR), except in paragraph mode (RS empty), where
//     goawk takes a line of a lone \r as blank and drops a final \r.
package awk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/benhoyt/goawk/interp"
	"github.com/benhoyt/goawk/lexer"
	"github.com/benhoyt/goawk/parser"

	"github.com/bashbox/bashbox/builtins"
)

const help = `Usage: %[1]s [POSIX or GNU style options] -f progfile [--] file ...
Usage: %[1]s [POSIX or GNU style options] [--] 'program' file ...
POSIX options:		GNU long options: (standard)
	-f progfile		--file=progfile
	-F fs			--field-separator=fs
	-v var=val		--assign=var=val
Short options:		GNU long options: (extensions)
	-e 'program-text'	--source='program-text'
	-h			--help
	-V			--version

%[1]s is a pattern scanning and processing language.
By default it reads standard input and writes standard output.

Examples:
	%[1]s '{ sum += $1 }; END { print sum }' file
	%[1]s -F: '{ print $1 }' /etc/passwd
`

var options = builtins.Options{
	List: []builtins.Option{
		{Short: 'f', Long: "file", Arg: builtins.RequiredArg},
		{Short: 'F', Long: "field-separator", Arg: builtins.RequiredArg},
		{Short: 'v', Long: "assign", Arg: builtins.RequiredArg},
		{Short: 'e', Long: "source", Arg: builtins.RequiredArg},
		{Short: 'h', Long: "help"},
		{Short: 'V', Long: "version"},
	},
	StopAtOperand: true,
}

// source is one piece of the program: a -f file or command-line text.
type source struct {
	name  string // "cmd. line" or the file name
	text  string
	first int // first line number in the joined program
	lines int
}

// Run is the awk command.
func Run(ctx context.Context, c *builtins.Call) int {
	name := c.Name()
	usage := func() int {
		fmt.Fprintf(c.Stderr, help, name)
		return 1
	}
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		c.Errorf("%s", err.Error())
		return usage()
	}
	var srcs []*source
	var vars []string
	ofmt := false
	for _, o := range opts {
		switch o.Key {
		case "help":
			fmt.Fprintf(c.Stdout, help, name)
			return 0
		case "version":
			return c.Version()
		case "file":
			f, err := c.Open(o.Value)
			if err != nil {
				c.Errorf("fatal: cannot open source file `%s' for reading: %s", o.Value, builtins.ErrText(err))
				return 2
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				c.Errorf("fatal: cannot open source file `%s' for reading: %s", o.Value, builtins.ErrText(err))
				return 2
			}
			srcs = append(srcs, &source{name: o.Value, text: string(data)})
		case "source":
			srcs = append(srcs, &source{name: "cmd. line", text: o.Value})
		case "field-separator":
			fs := o.Value
			if u, err := lexer.Unescape(fs); err == nil {
				fs = u
			}
			vars = append(vars, "FS", fs)
		case "assign":
			k, v, ok := strings.Cut(o.Value, "=")
			if !ok || !isAssignment(o.Value) {
				c.Errorf("`%s' argument to `-v' not in `var=value' form", o.Value)
				fmt.Fprintln(c.Stderr)
				return usage()
			}
			if u, err := lexer.Unescape(v); err == nil {
				v = u
			}
			if k == "OFMT" {
				ofmt = true
			}
			vars = append(vars, escape(k), v)
		}
	}
	if len(srcs) == 0 {
		if len(operands) == 0 {
			return usage()
		}
		srcs = append(srcs, &source{name: "cmd. line", text: operands[0]})
		operands = operands[1:]
	}
	var prog strings.Builder
	line := 1
	for i, s := range srcs {
		if i > 0 {
			prog.WriteByte('\n')
		}
		s.first = line
		s.lines = strings.Count(s.text, "\n") + 1
		line += s.lines
		if strings.HasSuffix(s.text, "\n") {
			s.lines--
		}
		prog.WriteString(s.text)
	}
	text := prog.String()
	for _, a := range operands {
		if isAssignment(a) && strings.HasPrefix(a, "OFMT=") {
			ofmt = true
		}
	}
	if strings.Contains(text, "OFMT") {
		ofmt = true
	}

	parsed, err := parser.ParseProgram([]byte(text), &parser.ParserConfig{Funcs: extStubs()})
	if err != nil {
		return parseError(c, srcs, err)
	}
	gen, err := generate(parsed, ofmt)
	if err != nil {
		c.Errorf("fatal: %s", err)
		return 2
	}
	rt := newRuntime(ctx, c)
	rt.loc = sourceLoc(srcs)
	funcs := rt.funcs()
	sandboxed, err := parser.ParseProgram([]byte(gen), &parser.ParserConfig{Funcs: funcs})
	if err != nil {
		c.Errorf("fatal: internal error: %s", err)
		return 2
	}
	rt.main.rs = "\n"
	for i := 0; i+1 < len(vars); i += 2 {
		if vars[i] == "RS" {
			rt.main.rs = vars[i+1]
		}
	}
	cfg := &interp.Config{
		Stdin:        rt.main,
		Output:       noFlush{rt.out},
		Error:        rt.stderr,
		Argv0:        name,
		Args:         operands,
		Vars:         vars,
		Funcs:        funcs,
		NoExec:       true,
		NoFileWrites: true,
		NoFileReads:  true,
		Environ:      environ(c.Env),
		Chars:        utf8Locale(c),
	}
	it, err := interp.New(sandboxed)
	if err != nil {
		c.Errorf("fatal: %s", err)
		return 2
	}
	// ExecuteContext, though goawk then counts towards a check of the
	// context before every opcode (8% of the instructions of the bench's
	// awk_groupby): the generated memory check also stops a cancelled run
	// (see held), but only every so many steps, and a program whose steps
	// turn slow after fast ones (index() over a string of tens of MB)
	// could run up to checkSteps slow steps past its deadline. goawk's
	// own check bounds that to one step.
	status, runErr := it.ExecuteContext(ctx, cfg)
	flushErr := rt.closeAll()
	if runErr == nil && flushErr != nil {
		runErr = flushErr
	}
	if runErr != nil {
		return rt.report(srcs, runErr)
	}
	return status
}

// report prints a run-time error the way gawk does and returns its status.
func (rt *runtime) report(srcs []*source, err error) int {
	c := rt.c
	if builtins.IsBrokenPipe(err) {
		return 141
	}
	if rt.ctx.Err() != nil {
		return 130
	}
	loc := sourceLoc(srcs)
	if rt.fatal != nil {
		msg := rt.fatal.Error()
		if (strings.HasPrefix(msg, "cannot open file") || strings.HasPrefix(msg, "error reading input")) && !rt.main.opened {
			loc = ""
		}
		fmt.Fprintf(c.Stderr, "%s: %sfatal: %s\n", c.Name(), loc, msg)
		return 2
	}
	msg := err.Error()
	var fe *fatalError
	if errors.As(err, &fe) {
		msg = fe.msg
	}
	switch {
	case msg == "division by zero":
		msg = "division by zero attempted"
	case msg == "division by zero in mod":
		msg = "division by zero attempted in `%'"
	case strings.HasPrefix(msg, "error reading from input: "):
		msg = "error reading input: " + strings.TrimPrefix(msg, "error reading from input: ")
	}
	fmt.Fprintf(c.Stderr, "%s: %sfatal: %s\n", c.Name(), loc, msg)
	return 2
}

// sourceLoc is where gawk says run-time messages come from: the line of
// a one-line program.
func sourceLoc(srcs []*source) string {
	if len(srcs) == 1 && srcs[0].lines == 1 {
		return srcs[0].name + ":1: "
	}
	return ""
}

// parseError prints a syntax error in gawk's form:
//
//	awk: cmd. line:1: BEGIN { print 1 +* }
//	awk: cmd. line:1:                  ^ syntax error
func parseError(c *builtins.Call, srcs []*source, err error) int {
	var pe *parser.ParseError
	if !errors.As(err, &pe) {
		c.Errorf("cmd. line:1: %s", err)
		return 1
	}
	line, col := pe.Position.Line, pe.Position.Column
	src := srcs[len(srcs)-1]
	for _, s := range srcs {
		if line >= s.first && line < s.first+s.lines+1 {
			src = s
			break
		}
	}
	rel := line - src.first + 1
	lines := strings.Split(src.text, "\n")
	text := ""
	if rel-1 < len(lines) && rel >= 1 {
		text = lines[rel-1]
	}
	prefix := fmt.Sprintf("%s: %s:%d: ", c.Name(), src.name, rel)
	msg := "syntax error"
	m := pe.Message
	switch {
	case strings.Contains(m, "end quote"):
		msg = "unterminated string"
		if i := strings.LastIndexByte(text[:min(len(text), max(col-1, 0))], '"'); i >= 0 {
			col = i + 1
		}
	case strings.Contains(m, "end slash"):
		msg = "unterminated regexp"
	case strings.HasPrefix(m, "undefined function"):
		fmt.Fprintf(c.Stderr, "%sfatal: function `%s' not defined\n", prefix, strings.Trim(strings.TrimPrefix(m, "undefined function "), `"`))
		return 1
	case strings.Contains(m, "EOF") || strings.Contains(m, "end of input") || strings.Contains(m, "newline"):
		msg = "unexpected newline or end of string"
		if col-1 > len(text) {
			col = len(text) + 1
		}
	case strings.HasPrefix(m, "can't use") || strings.HasPrefix(m, "next can't") ||
		strings.HasPrefix(m, "nextfile can't") || strings.HasPrefix(m, "return must") ||
		strings.HasPrefix(m, "break must") || strings.HasPrefix(m, "continue must") ||
		strings.Contains(m, "already defined") || strings.Contains(m, "function"):
		fmt.Fprintf(c.Stderr, "%serror: %s\n", prefix, m)
		return 1
	}
	fmt.Fprintf(c.Stderr, "%s%s\n", prefix, text)
	caret := col - 1
	if caret < 0 {
		caret = 0
	}
	fmt.Fprintf(c.Stderr, "%s%s^ %s\n", prefix, caretPad(text, caret), msg)
	return 1
}

// caretPad is the padding that puts a caret under column n of text
// (tabs kept so that it lines up).
func caretPad(text string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i < len(text) && text[i] == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// environ turns the sandbox environment into ENVIRON's name/value pairs.
func environ(env []string) []string {
	out := make([]string, 0, 2*len(env))
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if ok {
			out = append(out, k, v)
		}
	}
	return out
}

// utf8Locale reports whether strings are characters (a UTF-8 locale) or
// bytes.
func utf8Locale(c *builtins.Call) bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := c.Getenv(name); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// keepCR doubles the \r of each \r\n (and of a \r ending the input),
// holding back a \r that ends a read until the next byte is known. It
// reads into the first half of the caller's buffer and widens in place,
// so that input without carriage returns costs no copy.
type keepCR struct {
	r       io.Reader
	heldCR  bool
	pending []byte // for callers with buffers too small to widen in
}

func (k *keepCR) Read(p []byte) (int, error) {
	if len(k.pending) > 0 {
		n := copy(p, k.pending)
		k.pending = k.pending[n:]
		return n, nil
	}
	if len(p) < 4 {
		buf := make([]byte, 64)
		n, err := k.Read(buf)
		m := copy(p, buf[:n])
		k.pending = buf[m:n]
		if len(k.pending) > 0 {
			return m, nil
		}
		return m, err
	}
	for {
		off := 0
		if k.heldCR {
			p[0] = '\r'
			off = 1
		}
		n, err := k.r.Read(p[off : off+(len(p)-off)/2])
		data := p[:off+n]
		k.heldCR = false
		final := false // data ends the input with a \r
		if len(data) > 0 && data[len(data)-1] == '\r' {
			if err == nil {
				k.heldCR = true
				data = data[:len(data)-1]
			} else {
				final = true // goawk drops it from a last record too
			}
		}
		if len(data) == 0 && err == nil {
			continue
		}
		extra := bytes.Count(data, crlf)
		if final {
			extra++
		}
		if extra == 0 {
			return len(data), err
		}
		// Widen from the end: each \r before a \n (or ending the input)
		// is written twice.
		w := len(data) + extra
		j := w
		for i := len(data) - 1; i >= 0; i-- {
			// data[i+1] is read before p[j] (j may be i+1) is written.
			c := data[i]
			twice := c == '\r' && (i+1 == len(data) && final || i+1 < len(data) && data[i+1] == '\n')
			j--
			p[j] = c
			if twice {
				j--
				p[j] = '\r'
			}
		}
		return w, err
	}
}

var crlf = []byte("\r\n")
