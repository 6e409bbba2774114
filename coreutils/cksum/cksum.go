// Package cksum implements cksum: the POSIX CRC with the file size, or,
// with -a, any of the digests of the *sum commands (GNU coreutils 9.1).
package cksum

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/digest"
	"github.com/bashbox/bashbox/coreutils/internal/digest/blake2"
)

// Run prints or verifies checksums (see package digest).
func Run(ctx context.Context, c *builtins.Call) int { return digest.Cksum(blake2.New)(ctx, c) }
