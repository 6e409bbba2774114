// Package link implements link: make a hard link with nothing but the
// link call (no options, no directory targets).
package link

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Run links FILE2 to FILE1.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" FILE1 FILE2\n  or:  "+c.Name()+" OPTION\nCall the link function to create a link named FILE2 to an existing FILE1.\n\n"+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	if st, ok := utilcmd.Operands(c, operands, 2, 2, 1); !ok {
		return st
	}
	if err := c.Link(operands[0], operands[1]); err != nil {
		c.Errorf("cannot create link %s to %s: %s", utilcmd.AF(c, operands[1]), utilcmd.AF(c, operands[0]), builtins.ErrText(err))
		return 1
	}
	return 0
}
