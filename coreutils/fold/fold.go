// Package fold implements GNU fold: wrap input lines to a width.
package fold

import (
	"bufio"
	"context"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes         count bytes rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'b', Long: "bytes"},
	{Short: 's', Long: "spaces"},
	{Short: 'w', Long: "width", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "version"},
}}

type folder struct {
	width  int
	bytes  bool
	spaces bool
	line   []byte
}

// Run is the fold command.
func Run(ctx context.Context, c *builtins.Call) int {
	// Obsolete -N width: "-5" or grouped like "-s5" are rewritten to -w.
	args := make([]string, 0, len(c.Args))
	for i, a := range c.Args[1:] {
		if a == "--" {
			args = append(args, c.Args[1+i:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' {
			j := 1
			for j < len(a) && a[j] != 'w' && (a[j] < '0' || a[j] > '9') {
				j++
			}
			if j < len(a) && a[j] >= '0' && a[j] <= '9' {
				if j > 1 {
					args = append(args, a[:j])
				}
				args = append(args, "-w"+a[j:])
				continue
			}
		}
		args = append(args, a)
	}
	opts, files, err := options.Parse(args)
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	f := &folder{width: 80}
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, helpText+textfmt.CoreutilsTrailer("fold"))
		case "version":
			return c.Version()
		case "bytes":
			f.bytes = true
		case "spaces":
			f.spaces = true
		case "width":
			w, msg, ok := parseWidth(o.Value)
			if !ok {
				c.Errorf("invalid number of columns: %s%s", textfmt.Quote(c, o.Value), msg)
				return 1
			}
			f.width = w
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := textfmt.NewOutput(c.Stdout)
	status := 0
	for _, name := range files {
		if out.Failed() || ctx.Err() != nil {
			break
		}
		r, closeFn, err := textfmt.Open(c, name)
		if err != nil {
			c.FileError(name, err, 1)
			status = 1
			continue
		}
		if err := f.fold(ctx, out, r); err != nil {
			c.FileError(name, err, 1)
			status = 1
		}
		closeFn()
	}
	if ctx.Err() != nil {
		out.Flush()
		return 1
	}
	return out.Finish(c, status)
}

// parseWidth parses a column count as xnumtoumax does; on failure it
// returns the text that follows the quoted value in the diagnostic.
func parseWidth(s string) (int, string, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	if t == "" || t[0] == '-' {
		return 0, "", false
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(t, "+"), 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, ": Value too large for defined data type", false
		}
		return 0, "", false
	}
	if n == 0 {
		return 0, ": Numerical result out of range", false
	}
	if n > math.MaxInt32 {
		return 0, ": Value too large for defined data type", false
	}
	return int(n), "", true
}

func (f *folder) adjust(col int, b byte) int {
	if f.bytes {
		return col + 1
	}
	switch b {
	case '\b':
		if col > 0 {
			col--
		}
	case '\r':
		col = 0
	case '\t':
		col += 8 - col%8
	default:
		col++
	}
	return col
}

func (f *folder) fold(ctx context.Context, out *textfmt.Output, r io.Reader) error {
	br := textfmt.NewReader(r)
	line := f.line[:0]
	col := 0
	var tick textfmt.Tick
	for {
		chunk, err := br.ReadSlice('\n')
		if tick.Stop(ctx) || out.Failed() {
			return nil
		}
		for i := 0; i < len(chunk); i++ {
			b := chunk[i]
			if b == '\n' {
				line = append(line, b)
				out.Write(line)
				line = line[:0]
				col = 0
				continue
			}
		rescan:
			col = f.adjust(col, b)
			if col > f.width {
				if f.spaces {
					end := -1
					for k := len(line) - 1; k >= 0; k-- {
						if line[k] == ' ' || line[k] == '\t' {
							end = k + 1
							break
						}
					}
					if end >= 0 {
						out.Write(line[:end])
						out.WriteByte('\n')
						n := copy(line, line[end:])
						line = line[:n]
						col = 0
						for _, lb := range line {
							col = f.adjust(col, lb)
						}
						goto rescan
					}
				}
				if len(line) == 0 {
					line = append(line, b)
					continue
				}
				line = append(line, '\n')
				out.Write(line)
				line = line[:0]
				col = 0
				goto rescan
			}
			line = append(line, b)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if len(line) > 0 {
				out.Write(line)
			}
			f.line = line[:0]
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}
