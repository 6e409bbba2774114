// Package sum implements sum: the BSD (-r) and System V (-s) 16-bit
// checksums with block counts.
package sum

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/digest"
)

// Run prints checksums and block counts (see package digest).
func Run(ctx context.Context, c *builtins.Call) int { return digest.Sum(ctx, c) }
