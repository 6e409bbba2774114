// Package whoami implements whoami: print the sandbox user's name ($USER,
// else "user", as ls -l shows file owners).
package whoami

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Run prints the effective user name.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" [OPTION]...\n"+
		"Print the user name associated with the current effective user ID.\n"+
		"Same as id -un.\n\n"+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	if st, ok := utilcmd.Operands(c, operands, 0, 0, 1); !ok {
		return st
	}
	out := textfmt.NewOutput(c.Stdout)
	out.WriteString(meta.UserName(c) + "\n")
	return out.Finish(c, 0)
}
