// Package base64 implements base64: encode or decode Base64 (RFC 4648) data.
package base64

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/basenc"
)

// Run encodes standard input or a file, or decodes it with -d.
func Run(ctx context.Context, c *builtins.Call) int { return basenc.Run(ctx, c, basenc.Base64) }
