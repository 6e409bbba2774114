// Package nohup implements nohup: run a command immune to hangups. A
// sandbox call has no terminal and sends no hangup, so nohup runs the
// command as it is, as GNU nohup does when no stream is a terminal (it
// then neither redirects nor writes nohup.out).
package nohup

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Run runs the command.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" COMMAND [ARG]...\n  or:  "+c.Name()+" OPTION\n"+
		"Run COMMAND, ignoring hangup signals.\n\n"+utilcmd.Trailer(), 125, true)
	if done {
		return st
	}
	if st, ok := utilcmd.Operands(c, operands, 1, -1, 125); !ok {
		return st
	}
	status, failed := procutil.Exec(ctx, c, c.Sub(operands))
	if failed != procutil.Ran {
		c.Errorf("failed to run command %s: %s", utilcmd.AF(c, operands[0]), failed.Text())
	}
	return status
}
