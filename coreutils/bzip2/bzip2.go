// Package bzip2 implements bzip2: it compresses and decompresses files (bzip2 1.0.8).
// The work is done by package compcmd.
package bzip2

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the bzip2 command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Bzip2, compcmd.Compress)
}
