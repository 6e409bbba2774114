// Package gunzip implements gunzip: it decompresses gzip files in place (gzip -d).
// The work is done by package gzipcmd.
package gunzip

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/gzipcmd"
)

// Run is the gunzip command.
func Run(ctx context.Context, c *builtins.Call) int {
	return gzipcmd.Run(ctx, c, gzipcmd.Gunzip)
}
