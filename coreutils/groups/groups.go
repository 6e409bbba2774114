// Package groups implements groups over the sandbox's user table: the
// sandbox user (uid 1000, named by $USER, default "user") in its one
// group of the same name, and root in root.
package groups

import (
	"context"
	"fmt"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Run prints the groups of the sandbox user or of each named user.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" [OPTION]... [USERNAME]...\n"+
		"Print group memberships for each USERNAME or, if no USERNAME is specified, for\n"+
		"the current process (which may differ if the groups database has changed).\n"+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	me := c.Getenv("USER")
	if me == "" {
		me = "user"
	}
	if len(operands) == 0 {
		fmt.Fprintln(c.Stdout, me)
		return 0
	}
	status := 0
	for _, u := range operands {
		switch u {
		case me, "root":
			fmt.Fprintf(c.Stdout, "%s : %s\n", u, u)
		default:
			c.Errorf("%s: no such user", utilcmd.Q(c, u))
			status = 1
		}
	}
	return status
}
