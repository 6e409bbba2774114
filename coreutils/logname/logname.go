// Package logname implements logname. A sandbox call has no login
// session (no controlling terminal, no utmp record), so logname reports,
// as GNU's does in that case, that there is no login name.
package logname

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Run prints the login name, which a sandbox call never has.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" [OPTION]\nPrint the user's login name.\n\n"+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	if st, ok := utilcmd.Operands(c, operands, 0, 0, 1); !ok {
		return st
	}
	c.Errorf("no login name")
	return 1
}
