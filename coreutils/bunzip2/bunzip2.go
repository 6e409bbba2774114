// Package bunzip2 implements bunzip2: it decompresses .bz2 files (bzip2 -d).
// The work is done by package compcmd.
package bunzip2

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/compcmd"
)

// Run is the bunzip2 command.
func Run(ctx context.Context, c *builtins.Call) int {
	return compcmd.Run(ctx, c, compcmd.Bzip2, compcmd.Decompress)
}
