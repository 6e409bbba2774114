package textio

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// EachHeaded feeds every file operand to each in turn, the way head and
// tail read theirs: "-" is standard input, a file that cannot be opened is
// reported and skipped, and with headers every output starts with
// "==> NAME <==" (a blank line between them). opened counts the files
// read. When stop is true the command must return status at once (a
// write failed or the call was cancelled); otherwise status is 0, or 1
// after an error, and w still needs finishing.
func EachHeaded(ctx context.Context, c *builtins.Call, w *bufio.Writer, files []string, headers bool,
	each func(r io.Reader, stdin bool) error) (opened, status int, stop bool) {
	first := true
	for _, name := range files {
		if ctx.Err() != nil {
			return opened, Finish(c, w, 1), true
		}
		display := name
		var r io.ReadCloser
		if name == "-" {
			display = "standard input"
			r, _ = Open(c, "-")
		} else {
			f, err := c.Open(name)
			if err != nil {
				c.Errorf("cannot open %s for reading: %s", quote.UTF8.AF(name), builtins.ErrText(err))
				status = 1
				continue
			}
			r = f
		}
		opened++
		if headers {
			if !first {
				w.WriteByte('\n')
			}
			fmt.Fprintf(w, "==> %s <==\n", display)
		}
		first = false
		err := each(r, name == "-")
		r.Close()
		if err != nil {
			if IsWrite(err) {
				return opened, WriteFailed(c, err), true
			}
			if ctx.Err() != nil {
				return opened, Finish(c, w, 1), true
			}
			c.Errorf("error reading %s: %s", quote.UTF8.AF(display), builtins.ErrText(err))
			status = 1
		}
	}
	return opened, status, false
}
