// Package users implements users. Nobody is logged in to the sandbox (it
// has no login records), so the list is empty.
package users

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Run prints the (empty) list of logged-in users.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" [OPTION]... [FILE]\n"+
		"Output who is currently logged in according to FILE.\n"+
		"If FILE is not specified, use /var/run/utmp.  /var/log/wtmp as FILE is common.\n\n"+
		utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	st, _ = utilcmd.Operands(c, operands, 0, 1, 1)
	return st
}
