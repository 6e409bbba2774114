// Package yes implements yes: print a line repeatedly until killed.
package yes

import (
	"context"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

const bufSize = 64 << 10

// Run writes its operands joined by spaces (or "y") and a newline, again
// and again, in large buffers, until the reader goes away or ctx ends.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" [STRING]...\n  or:  "+c.Name()+" OPTION\n"+
		"Repeatedly output a line with all specified STRING(s), or 'y'.\n\n"+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	line := "y\n"
	if len(operands) > 0 {
		line = strings.Join(operands, " ") + "\n"
	}
	n := bufSize / len(line)
	if n < 1 {
		n = 1
	}
	buf := []byte(strings.Repeat(line, n))
	for {
		if ctx.Err() != nil {
			return procutil.CancelStatus(ctx)
		}
		if _, err := c.Stdout.Write(buf); err != nil {
			if builtins.IsBrokenPipe(err) {
				return 141
			}
			c.Errorf("standard output: %s", builtins.ErrText(err))
			return 1
		}
	}
}
