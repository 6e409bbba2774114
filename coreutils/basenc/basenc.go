// Package basenc implements GNU basenc: base64, base64url, base32,
// base32hex, base16, base2 and z85 encoding and decoding.
package basenc

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	enc "github.com/bashbox/bashbox/coreutils/internal/basenc"
)

// Run is the basenc command.
func Run(ctx context.Context, c *builtins.Call) int { return enc.RunBasenc(ctx, c) }
