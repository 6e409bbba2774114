// Package falsecmd implements false: do nothing, unsuccessfully.
package falsecmd

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	truecmd "github.com/bashbox/bashbox/coreutils/true"
)

// Run ignores its arguments and returns 1 (also after --help/--version,
// as GNU false does).
func Run(ctx context.Context, c *builtins.Call) int {
	return truecmd.Exit(c, 1, "Exit with a status code indicating failure.")
}
