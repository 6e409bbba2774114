package coreutils

import "github.com/bashbox/bashbox/builtins"

// registerFiles adds: ls stat du df tree file chmod touch.
func registerFiles(r *builtins.Registry) {
}
