// Package unzstd implements unzstd: it decompresses .zst files (zstd -d).
// The work is done by package compcmd.
package unzstd

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the unzstd command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Zstd, compcmd.Decompress)
}
