// Package col implements util-linux col: it lays the input out on a page
// as a terminal would (reverse and half line feeds, backspaces, carriage
// returns, tabs) and prints it forward only, with overstrikes as
// backspace sequences (or, with -b, only the last character) and runs of
// blanks as tabs (unless -x).
package col

import (
	"bufio"
	"context"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/wcwidth"
)

const helpText = `
Usage:
 col [options]

Filter out reverse line feeds from standard input.

Options:
 -b, --no-backspaces    do not output backspaces
 -f, --fine             permit forward half line feeds
 -p, --pass             pass unknown control sequences
 -h, --tabs             convert spaces to tabs
 -x, --spaces           convert tabs to spaces
 -l, --lines NUM        buffer at least NUM lines
 -H, --help             display this help
 -v, --version          display version

For more details see col(1).
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'b', Long: "no-backspaces"}, {Short: 'f', Long: "fine"}, {Short: 'p', Long: "pass"},
	{Short: 'h', Long: "tabs"}, {Short: 'x', Long: "spaces"},
	{Short: 'l', Long: "lines", Arg: builtins.RequiredArg},
	{Short: 'H', Long: "help"}, {Short: 'v', Long: "version"},
}}

// cell is one character placed on the page.
type cell struct {
	col   int
	width int
	text  string
	alt   bool // in the alternate character set (SO)
	seq   int  // arrival order, for overstrikes
}

// Run is the col command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, _, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	noBS, pass, spaces := false, false, false
	for _, o := range opts {
		switch o.Key {
		case "no-backspaces":
			noBS = true
		case "pass":
			pass = true
		case "spaces":
			spaces = true
		case "tabs":
			spaces = false
		case "lines":
			if n, err := strconv.Atoi(o.Value); err != nil || n < 0 {
				c.Errorf("bad -l argument: '%s'", o.Value)
				return 1
			}
		case "help":
			return textfmt.Help(c, helpText)
		case "version":
			fmt.Fprintf(c.Stdout, "col from util-linux 2.38.1\n")
			return 0
		}
	}
	utf := quote.UTF8Locale(c.Getenv)
	in := bufio.NewReader(c.Stdin)
	lines := map[int][]cell{} // by half line
	cur, col, maxLine, seq := 0, 0, -1, 0
	alt := false
	put := func(text string, w int) {
		lines[cur] = append(lines[cur], cell{col: col, width: w, text: text, alt: alt, seq: seq})
		seq++
		maxLine = max(maxLine, cur)
		col += w
	}
	sawText := false
	for {
		if ctx.Err() != nil {
			break
		}
		b, err := in.ReadByte()
		if err != nil {
			break
		}
		switch b {
		case '\n':
			cur += 2
			col = 0
			maxLine = max(maxLine, cur-1)
			sawText = false
			continue
		case '\r':
			col = 0
		case '\b':
			if col > 0 {
				col--
			}
		case '\t':
			col = (col + 8) &^ 7
		case ' ':
			col++
		case '\v':
			cur = max(cur-2, 0)
		case 0x0e:
			alt = true
		case 0x0f:
			alt = false
		case 0x1b:
			nb, err := in.ReadByte()
			if err != nil {
				break
			}
			switch nb {
			case 0o7:
				cur = max(cur-2, 0)
			case 0o10:
				cur = max(cur-1, 0)
			case 0o11:
				cur++
			default:
				if pass {
					put(string([]byte{b, nb}), 0)
				}
			}
		default:
			if b < 0x20 || b == 0x7f {
				if pass {
					put(string([]byte{b}), 0)
				}
				continue
			}
			if b < utf8.RuneSelf || !utf {
				put(string([]byte{b}), 1)
				sawText = true
				continue
			}
			in.UnreadByte()
			r, n, _ := in.ReadRune()
			if r == utf8.RuneError && n == 1 {
				put(string([]byte{b}), 1)
				continue
			}
			put(string(r), max(wcwidth.RuneWidth(r), 0))
			sawText = true
		}
	}
	// The last line is printed when it holds text, as if ended.
	last := maxLine
	if sawText {
		last = max(last, cur)
	}
	out := textfmt.NewOutput(c.Stdout)
	// Half lines go to the full line below them.
	full := map[int][]cell{}
	for l, cs := range lines {
		full[(l+1)/2] = append(full[(l+1)/2], cs...)
	}
	for l := 0; l <= (last+1)/2 && !out.Failed(); l++ {
		if l*2 > last && len(full[l]) == 0 {
			break
		}
		writeLine(out, full[l], noBS, spaces)
		out.WriteByte('\n')
	}
	return out.Finish(c, 0)
}

// writeLine prints one line's cells in column order.
func writeLine(out *textfmt.Output, cs []cell, noBS, spaces bool) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].col != cs[j].col {
			return cs[i].col < cs[j].col
		}
		return cs[i].seq < cs[j].seq
	})
	if noBS {
		// Only the last character written at a column stays.
		var kept []cell
		for i, c := range cs {
			if i+1 < len(cs) && cs[i+1].col == c.col && c.width > 0 {
				continue
			}
			kept = append(kept, c)
		}
		cs = kept
	}
	pos := 0
	alt := false
	for i, c := range cs {
		if i > 0 && c.col == cs[i-1].col && c.width > 0 && cs[i-1].width > 0 {
			out.WriteByte('\b')
			pos = c.col
		}
		if c.col > pos {
			gap := c.col - pos
			if !spaces && gap > 1 {
				if tabs := (pos%8 + gap) / 8; tabs > 0 {
					for k := 0; k < tabs; k++ {
						out.WriteByte('\t')
					}
					pos = (pos/8 + tabs) * 8
				}
			}
			for ; pos < c.col; pos++ {
				out.WriteByte(' ')
			}
		}
		if c.alt != alt {
			if c.alt {
				out.WriteByte(0x0e)
			} else {
				out.WriteByte(0x0f)
			}
			alt = c.alt
		}
		out.WriteString(c.text)
		pos = c.col + c.width
	}
	if alt {
		out.WriteByte(0x0f)
	}
}
