// Package bzcat implements bzcat: it decompresses .bz2 files to standard output (bzip2 -dc).
// The work is done by package compcmd.
package bzcat

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the bzcat command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Bzip2, compcmd.Cat)
}
