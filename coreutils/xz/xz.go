// Package xz implements xz: it compresses and decompresses .xz files (xz 5.4).
// The work is done by package compcmd.
package xz

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the xz command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Xz, compcmd.Compress)
}
