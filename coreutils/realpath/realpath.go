// Package realpath implements realpath: print the resolved file name.
package realpath

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

const help = `Usage: PROG [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -L, --logical                resolve '..' components before symlinks
  -P, --physical               resolve symlinks as encountered (default)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
      --relative-base=DIR      print absolute paths unless paths below DIR
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'e', Long: "canonicalize-existing"},
	{Short: 'm', Long: "canonicalize-missing"},
	{Short: 'L', Long: "logical"},
	{Short: 'P', Long: "physical"},
	{Short: 'q', Long: "quiet"},
	{Long: "relative-to", Arg: builtins.RequiredArg},
	{Long: "relative-base", Arg: builtins.RequiredArg},
	{Short: 's', Long: "strip"},
	{Long: "no-symlinks"},
	{Short: 'z', Long: "zero"},
}}

// Run is the realpath command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	cn := fileops.Canon{FS: c.FS, Dir: c.Dir, Mode: fileops.CanAllButLast}
	quiet := false
	delim := byte('\n')
	var relTo, relBase string
	var hasTo, hasBase bool
	for _, o := range opts {
		switch o.Key {
		case "canonicalize-existing":
			cn.Mode = fileops.CanExisting
		case "canonicalize-missing":
			cn.Mode = fileops.CanMissing
		case "logical":
			cn.Logical = true
		case "physical":
			cn.Logical = false
		case "quiet":
			quiet = true
		case "relative-to":
			relTo, hasTo = o.Value, true
		case "relative-base":
			relBase, hasBase = o.Value, true
		case "strip", "no-symlinks":
			cn.NoLinks = true
		case "zero":
			delim = 0
		}
	}
	if len(operands) == 0 {
		return fileops.UsageErr(c, "missing operand")
	}
	q := quote.New(c)
	fail := func(name string, err error) {
		if !quiet {
			c.Errorf("%s: %s", q.F(name), builtins.ErrText(err))
		}
	}
	var canTo, canBase string
	if hasTo {
		p, err := cn.Resolve(relTo)
		if err != nil {
			fail(relTo, err)
			return 1
		}
		canTo = p
	}
	if hasBase {
		p, err := cn.Resolve(relBase)
		if err != nil {
			fail(relBase, err)
			return 1
		}
		canBase = p
		if !hasTo {
			canTo, hasTo = canBase, true
		}
	}
	if hasBase && !fileops.IsUnder(canTo, canBase) {
		// DIR outside the base: print absolute names.
		hasTo, hasBase = false, false
	}
	out := fileops.NewOutput(c)
	status = 0
	for i, name := range operands {
		if i&1023 == 1023 && ctx.Err() != nil {
			status = 1
			break
		}
		p, err := cn.Resolve(name)
		if err != nil {
			fail(name, err)
			status = 1
			continue
		}
		if hasTo && (!hasBase || fileops.IsUnder(p, canBase)) {
			p = fileops.RelPath(canTo, p)
		}
		out.WriteString(p)
		out.WriteByte(delim)
	}
	return out.Finish(status)
}
