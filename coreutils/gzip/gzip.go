// Package gzip implements gzip: it compresses and decompresses files (GNU gzip 1.12).
// The work is done by package gzipcmd.
package gzip

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/gzipcmd"
)

// Run is the gzip command.
func Run(ctx context.Context, c *builtins.Call) int {
	return gzipcmd.Run(ctx, c, gzipcmd.Gzip)
}
