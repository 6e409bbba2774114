// Package sha224sum implements sha224sum: print or check SHA224 checksums.
package sha224sum

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/digest"
)

// Run computes or verifies SHA224 checksums (see package digest).
func Run(ctx context.Context, c *builtins.Call) int { return digest.Main(ctx, c, digest.SHA224) }
