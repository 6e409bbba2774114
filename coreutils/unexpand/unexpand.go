// Package unexpand implements GNU unexpand: convert spaces to tabs.
package unexpand

import (
	"bufio"
	"context"
	"io"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `Usage: unexpand [OPTION]... [FILE]...
Convert blanks in each FILE to tabs, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all        convert all blanks, instead of just initial blanks
      --first-only  convert only leading sequences of blanks (overrides -a)
  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "all"},
	{Long: "first-only"},
	{Short: 't', Long: "tabs", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "version"},
}}

// Run is the unexpand command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(textfmt.ObsoleteTabs(c.Args[1:]))
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	var tabs textfmt.TabStops
	all, firstOnly := false, false
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, helpText+textfmt.TabsHelp+textfmt.CoreutilsTrailer("unexpand"))
		case "version":
			return c.Version()
		case "all":
			all = true
		case "first-only":
			firstOnly = true
		case "tabs":
			if !strings.HasPrefix(o.Value, "\x00") {
				all = true
			}
			if !tabs.Set(c, o.Value) {
				return 1
			}
		}
	}
	if firstOnly {
		all = false
	}
	if !tabs.Done(c) {
		return 1
	}
	in := textfmt.NewInputs(c, files)
	out := textfmt.NewOutput(c.Stdout)
	u := &unexpander{tabs: &tabs, all: all, out: out}
	return in.Finish(ctx, out, u.run(ctx, in))
}

type unexpander struct {
	tabs *textfmt.TabStops
	all  bool
	out  *textfmt.Output

	// per-line state
	convert           bool
	column            uint64
	next              uint64
	idx               int
	oneBlankBeforeTab bool
	prevBlank         bool
	pending           []byte
}

func (u *unexpander) newLine() {
	u.convert = true
	u.column, u.next, u.idx = 0, 0, 0
	u.oneBlankBeforeTab = false
	u.prevBlank = true
	u.pending = u.pending[:0]
}

func (u *unexpander) flushPending() {
	if len(u.pending) > 0 {
		if len(u.pending) > 1 && u.oneBlankBeforeTab {
			u.pending[0] = '\t'
		}
		u.out.Write(u.pending)
		u.pending = u.pending[:0]
		u.oneBlankBeforeTab = false
	}
}

// step handles one input byte (eof: end of input) and reports whether the
// byte is to be written.
func (u *unexpander) step(b byte, eof bool) (byte, bool) {
	if !u.convert {
		return b, true
	}
	blank := !eof && (b == ' ' || b == '\t')
	switch {
	case blank:
		next, last := u.tabs.Next(u.column, &u.idx)
		u.next = next
		if last {
			u.convert = false
		}
		if u.convert {
			if b == '\t' {
				u.column = next
				if len(u.pending) > 0 {
					u.pending[0] = '\t'
				}
			} else {
				u.column++
				if !(u.prevBlank && u.column == next) {
					if u.column == next {
						u.oneBlankBeforeTab = true
					}
					u.pending = append(u.pending, b)
					u.prevBlank = true
					return 0, false
				}
				b = '\t'
				if len(u.pending) > 0 {
					u.pending[0] = '\t'
				}
			}
			// Discard pending blanks, unless it was a single blank just
			// before the previous tab stop.
			if u.oneBlankBeforeTab {
				u.pending = u.pending[:1]
			} else {
				u.pending = u.pending[:0]
			}
		}
	case b == '\b' && !eof:
		if u.column > 0 {
			u.column--
		}
		u.next = u.column
		if u.idx > 0 {
			u.idx--
		}
	default:
		u.column++
	}
	u.flushPending()
	u.prevBlank = blank
	u.convert = u.convert && (u.all || blank)
	return b, !eof
}

func (u *unexpander) run(ctx context.Context, in io.Reader) error {
	br := textfmt.NewReader(in)
	u.newLine()
	var tick textfmt.Tick
	for {
		chunk, err := br.ReadSlice('\n')
		if tick.Stop(ctx) || u.out.Failed() {
			return nil
		}
		for i := 0; i < len(chunk); i++ {
			b := chunk[i]
			if !u.convert {
				// Copy the rest of the line as is.
				j := i
				for j < len(chunk) && chunk[j] != '\n' {
					j++
				}
				if j < len(chunk) {
					u.out.Write(chunk[i : j+1])
					u.newLine()
					i = j
				} else {
					u.out.Write(chunk[i:])
					i = len(chunk)
				}
				continue
			}
			if ob, ok := u.step(b, false); ok {
				u.out.WriteByte(ob)
			}
			if b == '\n' {
				u.newLine()
			}
		}
		if err == nil || err == bufio.ErrBufferFull {
			continue
		}
		u.step(0, true)
		if err == io.EOF {
			return nil
		}
		return err
	}
}
