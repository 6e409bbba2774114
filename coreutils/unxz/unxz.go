// Package unxz implements unxz: it decompresses .xz files (xz -d).
// The work is done by package compcmd.
package unxz

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the unxz command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Xz, compcmd.Decompress)
}
