// Package zstd implements zstd: it compresses and decompresses .zst files (zstd 1.5).
// The work is done by package compcmd.
package zstd

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the zstd command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Zstd, compcmd.Compress)
}
