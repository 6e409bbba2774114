// Package nl implements GNU nl: number lines of files.
package nl

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"math"
	"regexp"
	"strconv"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `Usage: nl [OPTION]... [FILE]...
Write each FILE to standard output, with line numbers added.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --body-numbering=STYLE      use STYLE for numbering body lines
  -d, --section-delimiter=CC      use CC for logical page delimiters
  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines
  -h, --header-numbering=STYLE    use STYLE for numbering header lines
  -i, --line-increment=NUMBER     line number increment at each line
  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one
  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -p, --no-renumber               do not reset line numbers for each section
  -s, --number-separator=STRING   add STRING after (possible) line number
  -v, --starting-line-number=NUMBER  first line number for each section
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --help        display this help and exit
      --version     output version information and exit

Default options are: -bt -d'\:' -fn -hn -i1 -l1 -n'rn' -s<TAB> -v1 -w6

CC are two delimiter characters used to construct logical page delimiters;
a missing second character implies ':'.  As a GNU extension one can specify
more than two characters, and also specifying the empty string (-d '')
disables section matching.

STYLE is one of:

  a      number all lines
  t      number only nonempty lines
  n      number no lines
  pBRE   number only lines that contain a match for the basic regular
         expression, BRE

FORMAT is one of:

  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'h', Long: "header-numbering", Arg: builtins.RequiredArg},
	{Short: 'b', Long: "body-numbering", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "footer-numbering", Arg: builtins.RequiredArg},
	{Short: 'v', Long: "starting-line-number", Arg: builtins.RequiredArg},
	{Short: 'i', Long: "line-increment", Arg: builtins.RequiredArg},
	{Short: 'p', Long: "no-renumber"},
	{Short: 'l', Long: "join-blank-lines", Arg: builtins.RequiredArg},
	{Short: 's', Long: "number-separator", Arg: builtins.RequiredArg},
	{Short: 'w', Long: "number-width", Arg: builtins.RequiredArg},
	{Short: 'n', Long: "number-format", Arg: builtins.RequiredArg},
	{Short: 'd', Long: "section-delimiter", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "version"},
}}

// style is how one kind of section is numbered.
type style struct {
	kind byte // a t n p
	re   *regexp.Regexp
}

type numberer struct {
	styles    [3]style // header, body, footer
	cur       int
	headerDel []byte
	bodyDel   []byte
	footerDel []byte
	incr      int64
	blankJoin int64
	format    string // ln rn rz
	renumber  bool
	sep       []byte
	start     int64
	width     int

	lineNo     int64
	overflow   bool
	blankLines int64
	noLine     []byte
	numBuf     []byte
}

const (
	header = iota
	body
	footer
)

// Run is the nl command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	n := &numberer{
		styles:    [3]style{{kind: 'n'}, {kind: 't'}, {kind: 'n'}},
		cur:       body,
		incr:      1,
		blankJoin: 1,
		format:    "rn",
		renumber:  true,
		sep:       []byte{'\t'},
		start:     1,
		width:     6,
	}
	del := []byte(`\:`)
	names := map[string]string{"header-numbering": "header", "body-numbering": "body", "footer-numbering": "footer"}
	idx := map[string]int{"header-numbering": header, "body-numbering": body, "footer-numbering": footer}
	// number reads a numeric option's value in [min, max], reporting a bad
	// one as an invalid what.
	number := func(value, what string, min, max int64) (int64, bool) {
		v, msg, ok := textfmt.DecToInt(value, min, max)
		if !ok {
			c.Errorf("invalid %s: %s%s", what, textfmt.Quote(c, value), msg)
		}
		return v, ok
	}
	var ok bool
	for _, o := range opts {
		if st, done := textfmt.HelpVersion(c, o, helpText); done {
			return st
		}
		switch o.Key {
		case "header-numbering", "body-numbering", "footer-numbering":
			st, ok, status := parseStyle(c, o.Value)
			if status != 0 {
				return status
			}
			if !ok {
				c.Errorf("invalid %s numbering style: %s", names[o.Key], textfmt.Quote(c, o.Value))
				return c.TryHelp(1)
			}
			n.styles[idx[o.Key]] = st
		case "section-delimiter":
			del = []byte(o.Value)
			if len(del) == 1 {
				del = append(del, ':')
			}
		case "line-increment":
			if n.incr, ok = number(o.Value, "line number increment", math.MinInt64, math.MaxInt64); !ok {
				return 1
			}
		case "join-blank-lines":
			if n.blankJoin, ok = number(o.Value, "line number of blank lines", 1, math.MaxInt64); !ok {
				return 1
			}
		case "number-format":
			switch o.Value {
			case "ln", "rn", "rz":
				n.format = o.Value
			default:
				c.Errorf("invalid line numbering format: %s", textfmt.Quote(c, o.Value))
				return c.TryHelp(1)
			}
		case "no-renumber":
			n.renumber = false
		case "number-separator":
			n.sep = []byte(o.Value)
		case "starting-line-number":
			if n.start, ok = number(o.Value, "starting line number", math.MinInt64, math.MaxInt64); !ok {
				return 1
			}
		case "number-width":
			v, ok := number(o.Value, "line number field width", 1, math.MaxInt32)
			if !ok {
				return 1
			}
			n.width = int(v)
		}
	}
	if len(del) >= 2 {
		n.footerDel = del
		n.bodyDel = bytes.Repeat(del, 2)
		n.headerDel = bytes.Repeat(del, 3)
	}
	n.noLine = bytes.Repeat([]byte{' '}, n.width+len(n.sep))
	n.lineNo = n.start

	out := textfmt.NewOutput(c.Stdout)
	overflow := false
	status := textfmt.EachFile(ctx, c, out, files, nil, func(name string, r io.Reader) error {
		err := n.process(ctx, out, r)
		if err == errOverflow {
			out.Flush()
			c.Errorf("line number overflow")
			overflow = true
			return textfmt.ErrStop
		}
		return err
	})
	if overflow {
		return 1
	}
	return out.End(ctx, c, status)
}

type overflowErr struct{}

func (overflowErr) Error() string { return "line number overflow" }

var errOverflow = overflowErr{}

func parseStyle(c *builtins.Call, v string) (style, bool, int) {
	if v == "" {
		return style{}, false, 0
	}
	switch v[0] {
	case 'a', 't', 'n':
		if len(v) != 1 {
			return style{}, false, 0
		}
		return style{kind: v[0]}, true, 0
	case 'p':
		re, err := textfmt.CompileRegex(v[1:], textfmt.BRE)
		if err != nil {
			c.Errorf("%s", err.Error())
			return style{}, false, 1
		}
		return style{kind: 'p', re: re}, true, 0
	}
	return style{}, false, 0
}

func (n *numberer) section(line []byte) int {
	if len(n.footerDel) < 2 || len(line) < 2 || line[0] != n.footerDel[0] || line[1] != n.footerDel[1] {
		return -1
	}
	switch {
	case bytes.Equal(line, n.headerDel):
		return header
	case bytes.Equal(line, n.bodyDel):
		return body
	case bytes.Equal(line, n.footerDel):
		return footer
	}
	return -1
}

func (n *numberer) printNumber(out *textfmt.Output) error {
	if n.overflow {
		return errOverflow
	}
	b := n.numBuf[:0]
	digits := strconv.AppendInt(nil, n.lineNo, 10)
	pad := n.width - len(digits)
	switch n.format {
	case "ln":
		b = append(b, digits...)
		for ; pad > 0; pad-- {
			b = append(b, ' ')
		}
	case "rn":
		for ; pad > 0; pad-- {
			b = append(b, ' ')
		}
		b = append(b, digits...)
	case "rz":
		if digits[0] == '-' {
			b = append(b, '-')
			digits = digits[1:]
		}
		for ; pad > 0; pad-- {
			b = append(b, '0')
		}
		b = append(b, digits...)
	}
	b = append(b, n.sep...)
	n.numBuf = b
	out.Write(b)
	next := n.lineNo + n.incr
	if (n.incr > 0 && next < n.lineNo) || (n.incr < 0 && next > n.lineNo) {
		n.overflow = true
	}
	n.lineNo = next
	return nil
}

func (n *numberer) process(ctx context.Context, out *textfmt.Output, r io.Reader) error {
	br := textfmt.NewReader(r)
	var long []byte
	var tick textfmt.Tick
	for {
		if tick.Stop(ctx) || out.Failed() {
			return nil
		}
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) == 0 {
			if err == io.EOF {
				return nil
			}
			return err
		}
		text := line
		if text[len(text)-1] == '\n' {
			text = text[:len(text)-1]
		}
		if sec := n.section(text); sec >= 0 {
			n.cur = sec
			if n.renumber {
				n.lineNo = n.start
			}
			out.WriteByte('\n')
		} else {
			if e := n.text(out, text); e != nil {
				return e
			}
			out.Write(text)
			out.WriteByte('\n')
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

func (n *numberer) text(out *textfmt.Output, text []byte) error {
	st := &n.styles[n.cur]
	switch st.kind {
	case 'a':
		if n.blankJoin > 1 {
			if len(text) > 0 {
				n.blankLines = 0
				return n.printNumber(out)
			}
			n.blankLines++
			if n.blankLines == n.blankJoin {
				n.blankLines = 0
				return n.printNumber(out)
			}
			out.Write(n.noLine)
			return nil
		}
		return n.printNumber(out)
	case 't':
		if len(text) > 0 {
			return n.printNumber(out)
		}
	case 'p':
		if st.re.Match(text) {
			return n.printNumber(out)
		}
	}
	out.Write(n.noLine)
	return nil
}
