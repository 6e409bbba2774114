// Package colrm implements util-linux colrm: remove a range of columns
// from each line of standard input, counting columns as a terminal does
// (tabs to the next multiple of 8, backspace one back, wide characters).
package colrm

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/wcwidth"
)

const helpText = `
Usage:
 colrm [startcol [endcol]]

Filter out the specified columns.

Options:
 -h, --help     display this help
 -V, --version  display version
colrm reads from standard input and writes to standard output


For more details see colrm(1).
`

var options = builtins.Options{List: []builtins.Option{{Short: 'h', Long: "help"}, {Short: 'V', Long: "version"}}}

// Run is the colrm command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		if o.Key == "help" {
			return textfmt.Help(c, helpText)
		}
		fmt.Fprintf(c.Stdout, "colrm from util-linux 2.38.1\n")
		return 0
	}
	var first, last uint64
	for i, what := range []string{"first", "second"} {
		if i >= len(operands) {
			break
		}
		v, err := strconv.ParseUint(operands[i], 10, 64)
		if err != nil {
			c.Errorf("%s argument: '%s'", what, operands[i])
			return 1
		}
		if i == 0 {
			first = v
		} else {
			last = v
		}
	}
	in := bufio.NewReader(c.Stdin)
	out := textfmt.NewOutput(c.Stdout)
	r := remover{in: in, out: out, first: first, last: last, utf8: quote.UTF8Locale(c.Getenv)}
	for r.line() {
		if out.Failed() || ctx.Err() != nil {
			break
		}
	}
	return out.Finish(c, 0)
}

type remover struct {
	in          *bufio.Reader
	out         *textfmt.Output
	first, last uint64
	utf8        bool
}

// next reads one character: its bytes and its width.
func (r *remover) next() ([]byte, int, bool) {
	b, err := r.in.ReadByte()
	if err != nil {
		return nil, 0, false
	}
	if b < utf8.RuneSelf || !r.utf8 {
		if b < 0x20 || b >= 0x7f {
			return []byte{b}, 0, true
		}
		return []byte{b}, 1, true
	}
	r.in.UnreadByte()
	ru, n, _ := r.in.ReadRune()
	buf := make([]byte, 0, 4)
	if ru == utf8.RuneError && n == 1 {
		r.in.UnreadRune()
		b, _ := r.in.ReadByte()
		return []byte{b}, 0, true
	}
	return utf8.AppendRune(buf, ru), max(wcwidth.RuneWidth(ru), 0), true
}

// advance is the column after character ch of width w at column ct.
func advance(ch []byte, w int, ct uint64) uint64 {
	switch ch[0] {
	case '\t':
		return (ct + 8) &^ 7
	case '\b':
		if ct == 0 {
			return 0
		}
		return ct - 1
	}
	return ct + uint64(w)
}

// line processes one line as util-linux's process_input does; it
// returns false at the end of the input.
func (r *remover) line() bool {
	var ct, prev uint64
	for {
		ch, w, ok := r.next()
		if !ok {
			return false
		}
		prev, ct = ct, advance(ch, w, ct)
		if ch[0] == '\n' {
			r.out.WriteByte('\n')
			return true
		}
		if r.first == 0 || ct < r.first {
			r.out.Write(ch)
			continue
		}
		break
	}
	for i := prev + 1; i < r.first; i++ {
		r.out.WriteByte(' ')
	}
	for r.last == 0 || ct < r.last {
		ch, w, ok := r.next()
		if !ok {
			return false
		}
		if ch[0] == '\n' {
			r.out.WriteByte('\n')
			return true
		}
		ct = advance(ch, w, ct)
	}
	for i := r.last; i < ct; i++ {
		r.out.WriteByte(' ')
	}
	for {
		ch, _, ok := r.next()
		if !ok {
			return false
		}
		r.out.Write(ch)
		if ch[0] == '\n' {
			return true
		}
	}
}
