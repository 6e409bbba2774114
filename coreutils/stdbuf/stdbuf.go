// Package stdbuf implements stdbuf: run a command with other stream
// buffering. Sandbox commands hand their output on as they write it, so
// the modes are checked as GNU checks them and the command runs as it is.
package stdbuf

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{StopAtOperand: true, List: []builtins.Option{
	{Short: 'i', Long: "input", Arg: builtins.RequiredArg},
	{Short: 'o', Long: "output", Arg: builtins.RequiredArg},
	{Short: 'e', Long: "error", Arg: builtins.RequiredArg},
	{Long: "help"}, {Long: "version"},
}}

// Run checks the modes and runs the command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 125)
	}
	modes := 0
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, "Usage: "+c.Name()+" OPTION... COMMAND\n"+
				"Run COMMAND, with modified buffering operations for its standard streams.\n\n"+
				"  -i, --input=MODE   adjust standard input stream buffering\n"+
				"  -o, --output=MODE  adjust standard output stream buffering\n"+
				"  -e, --error=MODE   adjust standard error stream buffering\n"+utilcmd.Trailer())
		case "version":
			return c.Version()
		default:
			modes++
			switch {
			case o.Value == "L":
				if o.Key == "input" {
					c.Errorf("line buffering stdin is meaningless")
					return c.TryHelp(125)
				}
			case o.Value == "0":
			default:
				if _, e := textio.ParseUint(o.Value, "EGkKMPTYZ0"); e != textio.NumOK {
					c.Errorf("invalid mode %s", utilcmd.Q(c, o.Value))
					return 125
				}
			}
		}
	}
	if modes == 0 {
		return utilcmd.Fail(c, 125, "you must specify a buffering mode option")
	}
	if len(operands) == 0 {
		return utilcmd.Fail(c, 125, "missing operand")
	}
	status, failed := procutil.Exec(ctx, c, c.Sub(operands))
	if failed != procutil.Ran {
		c.Errorf("failed to run command %s: %s", utilcmd.Q(c, operands[0]), failed.Text())
	}
	return status
}
