// Package lzma implements lzma, unlzma and lzcat (xz's legacy .lzma
// mode) on github.com/ulikunitz/xz's lzma package. The work is done by
// package compcmd.
package lzma

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the lzma command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Lzma, compcmd.Compress)
}

// RunUnlzma is unlzma (lzma -d).
func RunUnlzma(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Lzma, compcmd.Decompress)
}

// RunLzcat is lzcat (lzma -dc).
func RunLzcat(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Lzma, compcmd.Cat)
}
