// Package zcat implements zcat: it writes decompressed gzip data to standard output (gzip -cd).
// The work is done by package gzipcmd.
package zcat

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/gzipcmd"
)

// Run is the zcat command.
func Run(ctx context.Context, c *builtins.Call) int {
	return gzipcmd.Run(ctx, c, gzipcmd.Zcat)
}
