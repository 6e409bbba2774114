// Package sha512sum implements sha512sum: print or check SHA512 checksums.
package sha512sum

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/digest"
)

// Run computes or verifies SHA512 checksums (see package digest).
func Run(ctx context.Context, c *builtins.Call) int { return digest.Main(ctx, c, digest.SHA512) }
