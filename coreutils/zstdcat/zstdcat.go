// Package zstdcat implements zstdcat: it decompresses .zst files to standard output (zstd -dc).
// The work is done by package compcmd.
package zstdcat

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the zstdcat command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Zstd, compcmd.Cat)
}
