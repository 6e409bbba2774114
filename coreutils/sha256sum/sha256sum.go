// Package sha256sum implements sha256sum: print or check SHA256 checksums.
package sha256sum

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/digest"
)

// Run computes or verifies SHA256 checksums (see package digest).
func Run(ctx context.Context, c *builtins.Call) int { return digest.Main(ctx, c, digest.SHA256) }
