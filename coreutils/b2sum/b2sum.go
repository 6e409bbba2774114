// Package b2sum implements b2sum: print or check BLAKE2B checksums.
package b2sum

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/digest"
	"github.com/bashbox/bashbox/coreutils/internal/digest/blake2"
)

// Run computes or verifies BLAKE2B checksums (see package digest).
func Run(ctx context.Context, c *builtins.Call) int { return digest.B2sum(ctx, c, blake2.New) }
