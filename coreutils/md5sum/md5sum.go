// Package md5sum implements md5sum: print or check MD5 checksums.
package md5sum

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/digest"
)

// Run computes or verifies MD5 checksums (see package digest).
func Run(ctx context.Context, c *builtins.Call) int { return digest.Main(ctx, c, digest.MD5) }
