// Package tac implements GNU tac: write files last record first.
package tac

import (
	"bytes"
	"context"
	"io"
	"regexp"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'b', Long: "before"},
	{Short: 'r', Long: "regex"},
	{Short: 's', Long: "separator", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "version"},
}}

type tac struct {
	before bool
	sep    []byte
	re     *regexp.Regexp
	// caret: the pattern began with ^, which then only matches at the
	// start of the input or after a newline.
	caret bool
	// prefix: literal prefix every match starts with, to skip candidates.
	prefix []byte
}

// Run is the tac command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	t := &tac{sep: []byte{'\n'}}
	regex := false
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, helpText+textfmt.CoreutilsTrailer("tac"))
		case "version":
			return c.Version()
		case "before":
			t.before = true
		case "regex":
			regex = true
		case "separator":
			t.sep = []byte(o.Value)
		}
	}
	if len(t.sep) == 0 {
		// GNU tac treats an empty separator as a NUL-terminated record
		// separator that never matches inside the data.
		t.sep = []byte{0}
	}
	if regex {
		pat := string(t.sep)
		if len(pat) > 0 && pat[0] == '^' {
			t.caret = true
			pat = pat[1:]
		}
		re, err := textfmt.CompileRegex(pat, textfmt.Emacs)
		if err != nil {
			c.Errorf("%s", err.Error())
			return 1
		}
		t.re, err = regexp.Compile(`\A(?:` + re.String() + `)`)
		if err != nil {
			c.Errorf("Invalid regular expression")
			return 1
		}
		t.re.Longest()
		pfx, _ := re.LiteralPrefix()
		t.prefix = []byte(pfx)
	}
	out := textfmt.NewOutput(c.Stdout)
	openFailed := func(name string, err error) {
		c.Errorf("failed to open '%s' for reading: %s", name, builtins.ErrText(err))
	}
	status := textfmt.EachFile(ctx, c, out, files, openFailed, func(name string, r io.Reader) error {
		data, err := c.ReadAll(ctx, r)
		if err != nil {
			text := builtins.ErrText(err)
			if text == "Is a directory" {
				// GNU tac seeks in the file first, which fails so.
				text = "Invalid argument"
			}
			c.Errorf("%s: read error: %s", name, text)
			return textfmt.ErrReported
		}
		if t.re != nil {
			t.emitRegex(ctx, out, data)
		} else {
			t.emitLiteral(ctx, out, data)
		}
		return nil
	})
	return out.End(ctx, c, status)
}

// emitLiteral writes the records of data in reverse order.
func (t *tac) emitLiteral(ctx context.Context, out *textfmt.Output, data []byte) {
	var tick textfmt.Tick
	end := len(data) // end of the not yet written part
	sl := len(t.sep)
	// Records are TEXT SEP, a final one without SEP coming first; with -b
	// they are SEP TEXT, the text before the first SEP coming last.
	searchEnd := len(data)
	for {
		if tick.Stop(ctx) || out.Failed() {
			return
		}
		i := bytes.LastIndex(data[:searchEnd], t.sep)
		if i < 0 {
			out.Write(data[:end])
			return
		}
		cut := i
		if !t.before {
			cut = i + sl
		}
		if cut < end {
			out.Write(data[cut:end])
		}
		end, searchEnd = cut, i
	}
}

// lastMatch finds the match with the rightmost start that lies within
// data[:end], the way GNU tac's backward re_search does.
func (t *tac) lastMatch(data []byte, end int) (int, int) {
	for s := end - 1; s >= 0; s-- {
		if len(t.prefix) > 0 {
			k := bytes.LastIndex(data[:min(end, s+len(t.prefix))], t.prefix)
			if k < 0 {
				return -1, -1
			}
			s = k
		}
		if t.caret && s > 0 && data[s-1] != '\n' {
			continue
		}
		loc := t.re.FindIndex(data[s:end])
		if loc != nil {
			if loc[1] == 0 {
				// Empty matches do not separate records.
				continue
			}
			return s, s + loc[1]
		}
	}
	return -1, -1
}

func (t *tac) emitRegex(ctx context.Context, out *textfmt.Output, data []byte) {
	var tick textfmt.Tick
	end := len(data)
	searchEnd := len(data)
	for {
		if tick.Stop(ctx) || out.Failed() {
			return
		}
		ms, me := t.lastMatch(data, searchEnd)
		if ms < 0 {
			out.Write(data[:end])
			return
		}
		if t.before {
			out.Write(data[ms:end])
			end = ms
		} else {
			if me < end {
				out.Write(data[me:end])
			}
			end = me
		}
		searchEnd = ms
	}
}
