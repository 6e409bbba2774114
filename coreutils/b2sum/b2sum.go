// Package b2sum implements b2sum: print or check BLAKE2B checksums.
package b2sum

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/digest"
)

// Run computes or verifies BLAKE2B checksums (see package digest).
func Run(ctx context.Context, c *builtins.Call) int { return digest.Main(ctx, c, digest.BLAKE2B) }
