// Package truecmd implements true: do nothing, successfully.
package truecmd

import (
	"context"
	"fmt"

	"github.com/bashbox/bashbox/builtins"
)

// Run ignores its arguments and returns 0. As in GNU coreutils, --help and
// --version are recognized only when they are the sole argument.
func Run(ctx context.Context, c *builtins.Call) int {
	return Exit(c, 0, "Exit with a status code indicating success.")
}

// Exit is shared with false: it answers a sole --help or --version and
// otherwise returns status.
func Exit(c *builtins.Call, status int, what string) int {
	if len(c.Args) == 2 {
		switch c.Args[1] {
		case "--help":
			fmt.Fprintf(c.Stdout, "Usage: %s [ignored command line arguments]\n  or:  %s OPTION\n%s\n\n", c.Name(), c.Name(), what)
			fmt.Fprint(c.Stdout, "      --help        display this help and exit\n      --version     output version information and exit\n")
			return status
		case "--version":
			c.Version()
			return status
		}
	}
	return status
}
