package coreutils

import "github.com/bashbox/bashbox/builtins"

// registerSed adds: sed.
func registerSed(r *builtins.Registry) {
}
