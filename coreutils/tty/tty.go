// Package tty implements tty. A sandboxed command's standard input is
// never a terminal, so tty prints "not a tty" and exits 1.
package tty

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 's', Long: "silent"}, {Long: "quiet"},
}}

// Run reports that standard input is not a terminal.
func Run(ctx context.Context, c *builtins.Call) int {
	help := "Usage: " + c.Name() + " [OPTION]...\n" +
		"Print the file name of the terminal connected to standard input.\n\n" +
		"  -s, --silent, --quiet   print nothing, only return an exit status\n" +
		utilcmd.Trailer()
	opts, operands, code, done := utilcmd.Parse(c, options, help, 2)
	if done {
		return code
	}
	silent := false
	for _, o := range opts {
		switch o.Key {
		case "silent", "quiet":
			silent = true
		}
	}
	if len(operands) > 0 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[0]))
		return c.TryHelp(2)
	}
	if silent {
		return 1
	}
	out := textfmt.NewOutput(c.Stdout)
	out.WriteString("not a tty\n")
	st := out.Finish(c, 1)
	if out.Err() != nil && st != 141 {
		return 3
	}
	return st
}
