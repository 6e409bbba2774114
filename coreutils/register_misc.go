package coreutils

import "github.com/bashbox/bashbox/builtins"

// registerMisc adds: env printenv true false sleep test [ timeout yes.
func registerMisc(r *builtins.Registry) {
}
