// Package expand implements GNU expand: convert tabs to spaces.
package expand

import (
	"bufio"
	"context"
	"errors"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `Usage: expand [OPTION]... [FILE]...
Convert tabs in each FILE to spaces, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -i, --initial    do not convert tabs after non blanks
  -t, --tabs=N     have tabs N characters apart, not 8
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'i', Long: "initial"},
	{Short: 't', Long: "tabs", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "version"},
}}

// Run is the expand command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(textfmt.ObsoleteTabs(c.Args[1:]))
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	var tabs textfmt.TabStops
	initial := false
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, helpText+textfmt.TabsHelp+textfmt.CoreutilsTrailer("expand"))
		case "version":
			return c.Version()
		case "initial":
			initial = true
		case "tabs":
			if !tabs.Set(c, o.Value) {
				return 1
			}
		}
	}
	if !tabs.Done(c) {
		return 1
	}
	in := textfmt.NewInputs(c, files)
	out := textfmt.NewOutput(c.Stdout)
	return in.Finish(ctx, out, expand(ctx, in, out, &tabs, initial))
}

var errOverflow = errors.New("input line is too long")

const spaces = "                                                                "

func expand(ctx context.Context, in io.Reader, out *textfmt.Output, tabs *textfmt.TabStops, initial bool) error {
	br := textfmt.NewReader(in)
	var column uint64
	idx := 0
	convert := true
	var tick textfmt.Tick
	for {
		chunk, err := br.ReadSlice('\n')
		if tick.Stop(ctx) || out.Failed() {
			return nil
		}
		start := 0 // chunk[start:i] is pending plain output
		for i := 0; i < len(chunk); i++ {
			b := chunk[i]
			if !convert {
				if b == '\n' {
					convert, column, idx = true, 0, 0
				}
				continue
			}
			switch b {
			case '\t':
				out.Write(chunk[start:i])
				start = i + 1
				next, last := tabs.Next(column, &idx)
				if last {
					next = column + 1
				}
				if next < column {
					return errOverflow
				}
				n := next - column
				for n > uint64(len(spaces)) {
					out.WriteString(spaces)
					n -= uint64(len(spaces))
				}
				out.WriteString(spaces[:n])
				column = next
			case '\b':
				if initial {
					convert = false
				}
				if column > 0 {
					column--
				}
				if idx > 0 {
					idx--
				}
			case '\n':
				column, idx = 0, 0
			default:
				column++
				if b != ' ' && initial {
					convert = false
				}
			}
		}
		out.Write(chunk[start:])
		if err == nil || err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			return nil
		}
		return err
	}
}
