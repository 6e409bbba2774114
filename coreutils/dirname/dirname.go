// Package dirname implements dirname: strip the last component from file
// names.
package dirname

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
)

const help = `Usage: PROG [OPTION] NAME...
Output each NAME with its last non-slash component and trailing slashes
removed; if NAME contains no /'s, output '.' (meaning the current directory).

  -z, --zero     end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Examples:
  PROG /usr/bin/          -> "/usr"
  PROG dir1/str dir2/str  -> "dir1" followed by "dir2"
  PROG stdio.h            -> "."
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'z', Long: "zero"},
}}

// Dir returns what dirname(1) prints for name.
func Dir(name string) string {
	i := len(name)
	for i > 0 && name[i-1] == '/' {
		i--
	}
	for i > 0 && name[i-1] != '/' {
		i--
	}
	for i > 0 && name[i-1] == '/' {
		i--
	}
	if i > 0 {
		return name[:i]
	}
	if len(name) > 0 && name[0] == '/' {
		// Linux treats a leading "//" as "/".
		return "/"
	}
	return "."
}

// Run is the dirname command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	delim := byte('\n')
	for _, o := range opts {
		if o.Key == "zero" {
			delim = 0
		}
	}
	if len(operands) == 0 {
		return fileops.UsageErr(c, "missing operand")
	}
	out := fileops.NewOutput(c)
	for _, name := range operands {
		out.WriteString(Dir(name))
		out.WriteByte(delim)
	}
	return out.Finish(0)
}
