// Package nohup implements nohup: run a command immune to hangups. A
// sandbox call has no terminal and sends no hangup, so nohup runs the
// command as it is, as GNU nohup does when no stream is a terminal (it
// then neither redirects nor writes nohup.out).
package nohup

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{StopAtOperand: true, List: []builtins.Option{{Long: "help"}, {Long: "version"}}}

// Run runs the command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 125)
	}
	for _, o := range opts {
		if o.Key == "help" {
			return textfmt.Help(c, "Usage: "+c.Name()+" COMMAND [ARG]...\n  or:  "+c.Name()+" OPTION\n"+
				"Run COMMAND, ignoring hangup signals.\n\n"+utilcmd.Trailer())
		}
		return c.Version()
	}
	if len(operands) == 0 {
		return utilcmd.Fail(c, 125, "missing operand")
	}
	status, failed := procutil.Exec(ctx, c, c.Sub(operands))
	if failed != procutil.Ran {
		c.Errorf("failed to run command %s: %s", utilcmd.AF(c, operands[0]), failed.Text())
	}
	return status
}
