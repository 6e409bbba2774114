// Package basename implements basename: strip directory and suffix from
// file names.
package basename

import (
	"context"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

const help = `Usage: PROG NAME [SUFFIX]
  or:  PROG OPTION... NAME...
Print NAME with any leading directory components removed.
If specified, also remove a trailing SUFFIX.

Mandatory arguments to long options are mandatory for short options too.
  -a, --multiple       support multiple arguments and treat each as a NAME
  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a
  -z, --zero           end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Examples:
  PROG /usr/bin/sort          -> "sort"
  PROG include/stdio.h .h     -> "stdio"
  PROG -s .h include/stdio.h  -> "stdio"
  PROG -a any/str1 any/str2   -> "str1" followed by "str2"
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "multiple"},
	{Short: 's', Long: "suffix", Arg: builtins.RequiredArg},
	{Short: 'z', Long: "zero"},
}}

// Run is the basename command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	multiple := false
	suffix := ""
	delim := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "multiple":
			multiple = true
		case "suffix":
			suffix, multiple = o.Value, true
		case "zero":
			delim = 0
		}
	}
	q := quote.New(c)
	if len(operands) == 0 {
		return fileops.UsageErr(c, "missing operand")
	}
	if !multiple {
		if len(operands) > 2 {
			return fileops.UsageErr(c, "extra operand %s", q.Q(operands[2]))
		}
		if len(operands) == 2 {
			suffix = operands[1]
		}
		operands = operands[:1]
	}
	out := fileops.NewOutput(c)
	for _, name := range operands {
		b := fileops.LastComponent(name)
		if suffix != "" && len(b) > len(suffix) && strings.HasSuffix(b, suffix) {
			b = b[:len(b)-len(suffix)]
		}
		out.WriteString(b)
		out.WriteByte(delim)
	}
	return out.Finish(0)
}
