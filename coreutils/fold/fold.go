// Package fold implements GNU fold: wrap input lines to a width.
package fold

import (
	"bufio"
	"context"
	"io"
	"math"

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
	// Obsolete "-N" widths are digit options whose argument is the rest
	// of the number, as in GNU fold. (Written out, not appended by an
	// init function: the table stays static data, built at no start-up.)
	{Short: '0', Arg: builtins.OptionalArg}, {Short: '1', Arg: builtins.OptionalArg},
	{Short: '2', Arg: builtins.OptionalArg}, {Short: '3', Arg: builtins.OptionalArg},
	{Short: '4', Arg: builtins.OptionalArg}, {Short: '5', Arg: builtins.OptionalArg},
	{Short: '6', Arg: builtins.OptionalArg}, {Short: '7', Arg: builtins.OptionalArg},
	{Short: '8', Arg: builtins.OptionalArg}, {Short: '9', Arg: builtins.OptionalArg},
}}

type folder struct {
	width  int
	bytes  bool
	spaces bool
	line   []byte
}

// Run is the fold command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(c.Args[1:])
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
			if !f.setWidth(c, o.Value) {
				return 1
			}
		default:
			if len(o.Key) == 1 && o.Key[0] >= '0' && o.Key[0] <= '9' && !f.setWidth(c, o.Key+o.Value) {
				return 1
			}
		}
	}
	out := textfmt.NewOutput(c.Stdout)
	return out.End(ctx, c, textfmt.EachFile(ctx, c, out, files, nil, func(_ string, r io.Reader) error {
		return f.fold(ctx, out, r)
	}))
}

func (f *folder) setWidth(c *builtins.Call, v string) bool {
	w, msg, ok := textfmt.DecToUint(v, 1, math.MaxInt64-9)
	if !ok {
		c.Errorf("invalid number of columns: %s%s", textfmt.Quote(c, v), msg)
		return false
	}
	f.width = int(w)
	return true
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
			if !f.spaces && b != '\n' && (f.bytes || b != '\t' && b != '\b' && b != '\r') {
				// Fast path: a run of characters one column wide each.
				j := i
				for j < len(chunk) && chunk[j] != '\n' && (f.bytes || chunk[j] != '\t' && chunk[j] != '\b' && chunk[j] != '\r') {
					j++
				}
				for i < j {
					if col >= f.width && len(line) > 0 {
						line = append(line, '\n')
						out.Write(line)
						line = line[:0]
						col = 0
					}
					n := max(min(f.width-col, j-i), 1)
					line = append(line, chunk[i:i+n]...)
					col += n
					i += n
				}
				i--
				continue
			}
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
