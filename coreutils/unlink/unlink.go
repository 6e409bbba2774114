// Package unlink implements unlink: remove one file (never a directory)
// with nothing but the unlink call.
package unlink

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Run removes the named file.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" FILE\n  or:  "+c.Name()+" OPTION\nCall the unlink function to remove the specified FILE.\n\n"+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	if st, ok := utilcmd.Operands(c, operands, 1, 1, 1); !ok {
		return st
	}
	name := operands[0]
	fi, err := c.Lstat(name)
	if err == nil && fi.IsDir() {
		c.Errorf("cannot unlink %s: Is a directory", utilcmd.AF(c, name))
		return 1
	}
	if err == nil {
		err = c.FS.Remove(c.Abs(name))
	}
	if err != nil {
		c.Errorf("cannot unlink %s: %s", utilcmd.AF(c, name), builtins.ErrText(err))
		return 1
	}
	return 0
}
