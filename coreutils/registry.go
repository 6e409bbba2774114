// Package coreutils holds the sandbox's commands, one package per command
// (coreutils/grep, coreutils/sort, ...), and registers them. To add a
// command: write coreutils/NAME/NAME.go with
// `func Run(ctx context.Context, c *builtins.Call) int`, add its line to
// the table in commands_lean.go when its package and libraries cost next
// to nothing to initialise (GODEBUG=inittrace=1), else to commands.go and
// heavyNames (names.go), and add conformance cases.
package coreutils

import "github.com/bashbox/bashbox/builtins"

// Register adds every command of this package to r.
func Register(r *builtins.Registry) {
	for _, cmd := range commands() {
		r.Register(cmd.name, cmd.run)
	}
}
