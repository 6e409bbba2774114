package coreutils

import "github.com/bashbox/bashbox/builtins"

// registerTraversal adds: find xargs.
func registerTraversal(r *builtins.Registry) {
}
