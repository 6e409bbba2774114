// Package dc implements GNU dc 1.4.1, the reverse-Polish desk calculator,
// on the arbitrary-precision arithmetic it shares with bc
// (coreutils/internal/bcnum): numbers and strings on a stack, registers
// that are stacks with arrays, macros, conditionals, input and output
// bases, and GNU's messages.
package dc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/bcnum"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `Usage: dc [OPTION] [file ...]
  -e, --expression=EXPR    evaluate expression
  -f, --file=FILE          evaluate contents of file
  -h, --help               display this help and exit
  -V, --version            output version information and exit

Email bug reports to:  bug-dc@gnu.org .
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'e', Long: "expression", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "file", Arg: builtins.RequiredArg},
	{Short: 'h', Long: "help"}, {Short: 'V', Long: "version"},
}}

// value is a number or a string.
type value struct {
	n     bcnum.Num
	s     string
	isStr bool
}

// register is a stack of values and the array of its top level.
type register struct {
	stack []value
	array map[int64]value
}

// machine is one dc session.
type machine struct {
	ctx       context.Context
	c         *builtins.Call
	out       *textfmt.Output
	stdin     *bufio.Reader
	stack     []value
	regs      [256]register
	scale     int
	ibase     int
	obase     int
	lineLen   int
	quitDepth int // levels of macros still to leave (q, Q)
	quit      bool
}

// Run is the dc command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	m := &machine{ctx: ctx, c: c, out: textfmt.NewOutput(c.Stdout), ibase: 10, obase: 10, lineLen: 70,
		stdin: bufio.NewReader(c.Stdin)}
	if v, ok := c.LookupEnv("DC_LINE_LENGTH"); ok {
		if n, err := strconv.Atoi(v); err == nil && (n == 0 || n > 1) {
			m.lineLen = n
		}
	}
	ran := false
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, helpText)
		case "version":
			fmt.Fprintf(c.Stdout, "dc (GNU bc 1.07.1) 1.4.1\n")
			return 0
		case "expression":
			ran = true
			if m.runText(o.Value) {
				return m.out.Finish(c, 0)
			}
		case "file":
			ran = true
			if st, done := m.runFile(o.Value); done {
				return m.out.Finish(c, st)
			}
		}
	}
	for _, name := range operands {
		ran = true
		if st, done := m.runFile(name); done {
			return m.out.Finish(c, st)
		}
	}
	if !ran {
		m.runReader(m.stdin)
	}
	return m.out.Finish(c, 0)
}

func (m *machine) runFile(name string) (int, bool) {
	if name == "-" {
		m.runReader(m.stdin)
		return 0, m.quit
	}
	f, err := m.c.Open(name)
	if err != nil {
		m.out.Flush()
		m.c.Errorf("Could not open file %s", name)
		return 0, false
	}
	defer f.Close()
	data, err := m.c.ReadAll(m.ctx, f)
	if err != nil {
		m.c.Errorf("Could not open file %s", name)
		return 0, false
	}
	return 0, m.runText(string(data))
}

func (m *machine) runReader(r io.Reader) {
	data, err := m.c.ReadAll(m.ctx, r)
	if err != nil {
		return
	}
	m.runText(string(data))
}

// runText runs top-level text; it reports whether dc should stop.
func (m *machine) runText(text string) bool {
	m.exec(text, 0)
	return m.quit
}

func (m *machine) errorf(format string, a ...any) {
	m.out.Flush()
	m.c.Errorf(format, a...)
}

func (m *machine) push(v value) { m.stack = append(m.stack, v) }

func (m *machine) pushNum(n bcnum.Num) { m.push(value{n: n}) }

// need checks that the stack holds k values.
func (m *machine) need(k int) bool {
	if len(m.stack) < k {
		m.errorf("stack empty")
		return false
	}
	return true
}

func (m *machine) pop() value {
	v := m.stack[len(m.stack)-1]
	m.stack = m.stack[:len(m.stack)-1]
	return v
}

// nums pops k numbers (the top last in the result); on a string it
// reports "non-numeric value" and leaves the stack alone.
func (m *machine) nums(k int) ([]bcnum.Num, bool) {
	if !m.need(k) {
		return nil, false
	}
	out := make([]bcnum.Num, k)
	for i := 0; i < k; i++ {
		v := m.stack[len(m.stack)-k+i]
		if v.isStr {
			m.errorf("non-numeric value")
			return nil, false
		}
		out[i] = v.n
	}
	m.stack = m.stack[:len(m.stack)-k]
	return out, true
}

func (m *machine) restore(ns ...bcnum.Num) {
	for _, n := range ns {
		m.pushNum(n)
	}
}

// print writes a value; numbers are split into lines as GNU does.
func (m *machine) print(v value, newline bool) {
	if v.isStr {
		m.out.WriteString(v.s)
	} else {
		s := bcnum.Format(v.n, m.obase, func() bool { return m.ctx.Err() != nil })
		col := 0
		for i := 0; i < len(s); i++ {
			col++
			if m.lineLen > 1 && col == m.lineLen {
				m.out.WriteString("\\\n")
				col = 1
			}
			m.out.WriteByte(s[i])
		}
	}
	if newline {
		m.out.WriteByte('\n')
	}
}
