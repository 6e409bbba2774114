//go:build bashbox_front

package coreutils

import (
	"context"
	"fmt"

	"github.com/bashbox/bashbox/builtins"
)

// commands is the lean front's table: the lean commands, and for every
// other name of the full table an entry that fails loudly. The front runs
// a script itself only when package leanscript has proven that it reaches
// none of them, and hands every other script to the full binary before
// anything runs.
func commands() []entry {
	all := leanCommands()
	for _, name := range heavyNames {
		all = append(all, entry{name, missing})
	}
	return all
}

// missing is what a command outside the lean table does if a script the
// check passed reaches it anyway: an internal error, status 70
// (EX_SOFTWARE), never a result that looks like the command's.
func missing(_ context.Context, c *builtins.Call) int {
	fmt.Fprintf(c.Stderr, "bashbox: internal error: %s is not linked into this lean binary (run the script with bashbox-full)\n", c.Name())
	return 70
}
