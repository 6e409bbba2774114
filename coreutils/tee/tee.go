// Package tee implements tee: copy standard input to files and standard
// output.
package tee

import (
	"context"
	"io"
	"os"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
  -p                        diagnose errors writing to non pipes
      --output-error[=MODE]   set behavior on write error.  See MODE below
      --help        display this help and exit
      --version     output version information and exit

MODE determines behavior with write errors on the outputs:
  warn           diagnose errors writing to any output
  warn-nopipe    diagnose errors writing to any output not a pipe
  exit           exit on error writing to any output
  exit-nopipe    exit on error writing to any output not a pipe
The default MODE for the -p option is 'warn-nopipe'.
The default operation when --output-error is not specified, is to
exit immediately on error writing to a pipe, and diagnose errors
writing to non pipe outputs.
`

var options = []builtins.Option{
	{Short: 'a', Long: "append"},
	{Short: 'i', Long: "ignore-interrupts"},
	{Long: "output-error", Arg: builtins.OptionalArg},
	{Short: 'p'},
}

type mode int

const (
	sigpipeDefault mode = iota // no --output-error: die on a broken pipe
	warn
	warnNoPipe
	exitOnError
	exitNoPipe
)

var modeNames = []string{"warn", "warn-nopipe", "exit", "exit-nopipe"}

type output struct {
	name string
	w    io.Writer
	c    io.Closer
}

// Run is the tee command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, code, done := textio.Parse(c, options, help, 1)
	if done {
		return code
	}
	appendMode := false
	m := sigpipeDefault
	for _, o := range opts {
		switch o.Key {
		case "append":
			appendMode = true
		case "p":
			m = warnNoPipe
		case "output-error":
			if !o.Has {
				m = warnNoPipe
				continue
			}
			idx, ok := argmatch.Get(c, o.Value, "--output-error", argmatch.Words(modeNames...), 1)
			if !ok {
				return 1
			}
			m = mode(idx + 1)
		}
	}
	status := 0
	outs := []*output{{name: "standard output", w: c.Stdout}}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendMode {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	defer func() {
		for _, o := range outs {
			if o != nil && o.c != nil {
				o.c.Close()
			}
		}
	}()
	for _, name := range files {
		f, err := c.OpenFile(name, flag, 0o666)
		if err != nil {
			c.FileError(quote.UTF8.F(name), err, 1)
			if m == exitOnError || m == exitNoPipe {
				return 1
			}
			status = 1
			continue
		}
		outs = append(outs, &output{name: name, w: f, c: f})
	}
	in := textio.Stdin(c)
	buf := make([]byte, textio.BufSize)
	live := len(outs)
	for live > 0 {
		if ctx.Err() != nil {
			return 1
		}
		n, rerr := in.Read(buf)
		if n > 0 {
			for i, o := range outs {
				if o == nil {
					continue
				}
				if _, err := o.w.Write(buf[:n]); err != nil {
					pipe := builtins.IsBrokenPipe(err)
					if pipe && m == sigpipeDefault {
						return 141
					}
					if !(pipe && (m == warnNoPipe || m == exitNoPipe)) {
						c.Errorf("%s: %s", quote.UTF8.F(o.name), builtins.ErrText(err))
						status = 1
						if m == exitOnError || m == exitNoPipe {
							return 1
						}
					}
					if o.c != nil {
						o.c.Close()
					}
					outs[i] = nil
					live--
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			c.Errorf("read error: %s", builtins.ErrText(rerr))
			status = 1
			break
		}
	}
	for i, o := range outs {
		if o != nil && o.c != nil {
			if err := o.c.Close(); err != nil {
				c.FileError(quote.UTF8.F(o.name), err, 1)
				status = 1
			}
			outs[i] = nil
		}
	}
	return status
}
