// Package xzcat implements xzcat: it decompresses .xz files to standard output (xz -dc).
// The work is done by package compcmd.
package xzcat

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the xzcat command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Xz, compcmd.Cat)
}
