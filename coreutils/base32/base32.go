// Package base32 implements base32: encode or decode Base32 (RFC 4648) data.
package base32

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/basenc"
)

// Run encodes standard input or a file, or decodes it with -d.
func Run(ctx context.Context, c *builtins.Call) int { return basenc.Run(ctx, c, basenc.Base32) }
