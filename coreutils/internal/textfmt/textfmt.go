// Package textfmt holds helpers shared by the text formatting and dump
// commands (column, nl, fold, fmt, expand, unexpand, rev, tac, split, od,
// xxd, hexdump, strings): buffered output that remembers write errors,
// input opening with "-" meaning standard input, and GNU-style exit paths.
package textfmt

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// BufSize is the size of input and output buffers.
const BufSize = 64 * 1024

// errWriter remembers the first write error of the underlying stream.
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
	return &Output{Writer: bufio.NewWriterSize(ew, textio.WriteBufSize), ew: ew}
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
	return textio.WriteFailed(c, err)
}

// End is Finish at the end of a command, which returns 1 instead when ctx
// was cancelled.
func (o *Output) End(ctx context.Context, c *builtins.Call, status int) int {
	if ctx.Err() != nil {
		o.Flush()
		return 1
	}
	return o.Finish(c, status)
}

// NewReader wraps r in a large read buffer.
func NewReader(r io.Reader) *bufio.Reader { return textio.NewReader(r) }

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

// Help prints a usage text on standard output and returns 0.
func Help(c *builtins.Call, text string) int {
	fmt.Fprint(c.Stdout, text)
	return 0
}

// HelpVersion is utilcmd.HelpVersion for a command whose help is a fixed
// text: it answers --help and --version where they stand among the options.
func HelpVersion(c *builtins.Call, o builtins.Opt, text string) (status int, done bool) {
	return utilcmd.HelpVersion(c, o, func(c *builtins.Call) { Help(c, text) })
}

// CoreutilsTrailer is the end of a GNU coreutils --help text.
func CoreutilsTrailer(name string) string {
	return "      --help        display this help and exit\n" +
		"      --version     output version information and exit\n"
}

// UsageFailCoreutils prints a GNU coreutils usage error (no usage line)
// and returns 1.
func UsageFailCoreutils(c *builtins.Call, err error) int {
	return c.UsageFail(err, "", 1)
}

// ErrText is builtins.ErrText, for brevity.
func ErrText(err error) string { return builtins.ErrText(err) }

// Quote quotes s as GNU's quote() does in diagnostics: ‘s’ in a UTF-8
// locale, 's' otherwise, with unprintable characters escaped.
func Quote(c *builtins.Call, s string) string { return quote.New(c).Q(s) }

// TryHelp prints "Try 'NAME --help' for more information." and returns
// status.
func TryHelp(c *builtins.Call, status int) int {
	c.TryHelp(0)
	return status
}
