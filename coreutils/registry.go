// Package coreutils holds the sandbox's commands, one package per command
// (coreutils/grep, coreutils/sort, ...), and registers them. To add a
// command: write coreutils/NAME/NAME.go with
// `func Run(ctx context.Context, c *builtins.Call) int`, add its line to
// the table in commands.go (sorted by name), and add conformance cases.
package coreutils

import "github.com/bashbox/bashbox/builtins"

// Register adds every command of this package to r.
func Register(r *builtins.Registry) {
	for _, cmd := range commands() {
		r.Register(cmd.name, cmd.run)
	}
}
