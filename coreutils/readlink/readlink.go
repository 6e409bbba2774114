// Package readlink implements readlink: print resolved symbolic links or
// canonical file names.
package readlink

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

const help = `Usage: PROG [OPTION]... FILE...
Print value of a symbolic link or canonical file name

  -f, --canonicalize            canonicalize by following every symlink in
                                every component of the given name recursively;
                                all but the last component must exist
  -e, --canonicalize-existing   canonicalize by following every symlink in
                                every component of the given name recursively,
                                all components must exist
  -m, --canonicalize-missing    canonicalize by following every symlink in
                                every component of the given name recursively,
                                without requirements on components existence
  -n, --no-newline              do not output the trailing delimiter
  -q, --quiet
  -s, --silent                  suppress most error messages (on by default)
  -v, --verbose                 report error messages
  -z, --zero                    end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'f', Long: "canonicalize"},
	{Short: 'e', Long: "canonicalize-existing"},
	{Short: 'm', Long: "canonicalize-missing"},
	{Short: 'n', Long: "no-newline"},
	{Short: 'q', Long: "quiet"},
	{Short: 's', Long: "silent"},
	{Short: 'v', Long: "verbose"},
	{Short: 'z', Long: "zero"},
}}

// Run is the readlink command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	canon, mode := false, fileops.CanAllButLast
	noNewline, verbose := false, false
	delim := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "canonicalize":
			canon, mode = true, fileops.CanAllButLast
		case "canonicalize-existing":
			canon, mode = true, fileops.CanExisting
		case "canonicalize-missing":
			canon, mode = true, fileops.CanMissing
		case "no-newline":
			noNewline = true
		case "quiet", "silent":
			verbose = false
		case "verbose":
			verbose = true
		case "zero":
			delim = 0
		}
	}
	if len(operands) == 0 {
		return fileops.UsageErr(c, "missing operand")
	}
	if noNewline && len(operands) > 1 {
		c.Errorf("ignoring --no-newline with multiple arguments")
		noNewline = false
	}
	q := quote.New(c)
	out := fileops.NewOutput(c)
	cn := fileops.Canon{FS: c.FS, Dir: c.Dir, Mode: mode}
	status = 0
	for i, name := range operands {
		if i&1023 == 1023 && ctx.Err() != nil {
			status = 1
			break
		}
		var value string
		var err error
		if canon {
			value, err = cn.Resolve(name)
		} else {
			value, err = c.FS.ReadlinkIfPossible(c.Abs(name))
		}
		if err != nil {
			status = 1
			if verbose {
				c.Errorf("%s: %s", q.F(name), builtins.ErrText(err))
			}
			continue
		}
		out.WriteString(value)
		if !noNewline {
			out.WriteByte(delim)
		}
	}
	return out.Finish(status)
}
