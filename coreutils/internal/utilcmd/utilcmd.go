// Package utilcmd holds the helpers shared by the utility commands
// (checksums, base64/base32, expr, bc, date, printf, numfmt, shuf, tsort,
// factor and the system information commands): buffered output that
// remembers write errors, GNU-style help and usage exits, and quoting for
// diagnostics.
package utilcmd

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// BufSize is the size of input and output buffers.
const BufSize = 64 << 10

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// Output is a buffered standard output that remembers write errors.
type Output struct {
	*bufio.Writer
	ew *errWriter
}

// NewOutput wraps w in a large buffer.
func NewOutput(w io.Writer) *Output {
	ew := &errWriter{w: w}
	return &Output{Writer: bufio.NewWriterSize(ew, BufSize), ew: ew}
}

// Err is the first error the underlying stream returned.
func (o *Output) Err() error { return o.ew.err }

// Failed reports whether writing has failed, so that a loop can stop.
func (o *Output) Failed() bool { return o.ew.err != nil }

// Finish flushes the output and turns a write failure into the exit status:
// 141 quietly on a broken pipe, else "NAME: write error: TEXT" and 1.
// Without a failure it returns status.
func (o *Output) Finish(c *builtins.Call, status int) int {
	err := o.Flush()
	if o.ew.err != nil {
		err = o.ew.err
	}
	if err == nil {
		return status
	}
	if builtins.IsBrokenPipe(err) {
		return 141
	}
	c.Errorf("write error: %s", builtins.ErrText(err))
	return 1
}

// Help prints a usage text on standard output and returns 0.
func Help(c *builtins.Call, text string) int {
	fmt.Fprint(c.Stdout, text)
	return 0
}

// Trailer is the --help/--version part of a GNU coreutils help text.
func Trailer() string {
	return "      --help        display this help and exit\n" +
		"      --version     output version information and exit\n"
}

// TryHelp prints "Try 'NAME --help' for more information." and returns
// status.
func TryHelp(c *builtins.Call, status int) int {
	fmt.Fprintf(c.Stderr, "Try '%s --help' for more information.\n", c.Name())
	return status
}

// Fail prints "NAME: message" and the --help hint, and returns status.
func Fail(c *builtins.Call, status int, format string, a ...any) int {
	c.Errorf(format, a...)
	return TryHelp(c, status)
}

// UTF8 reports whether the call's locale uses UTF-8.
func UTF8(c *builtins.Call) bool { return quote.UTF8Locale(c.Getenv) }

// Q quotes an argument as GNU's quote() does: ‘x’ in a UTF-8 locale.
func Q(c *builtins.Call, s string) string { return quote.New(c).Q(s) }

// F quotes a file name as quotef does: only when needed, shell style.
func F(c *builtins.Call, s string) string { return quote.New(c).F(s) }

// AF quotes a file name as quoteaf does: always, shell style.
func AF(c *builtins.Call, s string) string { return quote.New(c).AF(s) }

// Tick is a cheap cancellation check for long loops: it consults ctx once
// every 1024 calls.
type Tick struct{ n uint32 }

// Stop reports whether the loop should stop because ctx is done.
func (t *Tick) Stop(ctx context.Context) bool {
	t.n++
	if t.n&1023 != 0 {
		return false
	}
	return ctx.Err() != nil
}
