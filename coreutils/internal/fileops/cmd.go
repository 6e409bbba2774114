// Package fileops holds what the file-operation commands (cp, mv, rm,
// mkdir, ln, install, realpath...) share: command-line handling, backups,
// path canonicalization, prompts, target planning, removal and the copy
// engine. File names are quoted with coreutils/internal/quote.
package fileops

import (
	"bufio"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Parse parses a coreutils command line with GNU's rules, answering
// --help (with help, PROG replaced by the command's name) and --version.
// When done is set the command returns status at once.
func Parse(c *builtins.Call, spec builtins.Options, help string) (opts []builtins.Opt, operands []string, status int, done bool) {
	return utilcmd.Parse(c, spec, strings.ReplaceAll(help, "PROG", c.Name()), 1)
}

// UsageErr prints "NAME: msg" and the --help hint; it returns 1.
func UsageErr(c *builtins.Call, format string, args ...any) int {
	c.Errorf(format, args...)
	c.TryHelp(0)
	return 1
}

// Output wraps standard output in a buffer; Flush reports a failed write
// as GNU does ("write error") or returns 141 quietly on a broken pipe.
type Output struct {
	*bufio.Writer
	c *builtins.Call
}

// NewOutput buffers the call's standard output.
func NewOutput(c *builtins.Call) *Output {
	return &Output{Writer: bufio.NewWriterSize(c.Stdout, 4096), c: c} // their output is a few lines
}

// FinishOK is Finish with status 0 when ok, else 1.
func (o *Output) FinishOK(ok bool) int {
	if ok {
		return o.Finish(0)
	}
	return o.Finish(1)
}

// Finish flushes the output and returns the exit status to use.
func (o *Output) Finish(status int) int {
	if err := o.Flush(); err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		o.c.Errorf("write error: %s", builtins.ErrText(err))
		return 1
	}
	return status
}
