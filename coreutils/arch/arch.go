// Package arch implements arch: print the machine architecture, as
// uname -m does.
package arch

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/uname"
)

// Run prints the sandbox's machine name.
func Run(ctx context.Context, c *builtins.Call) int { return uname.Arch(ctx, c) }
