package coreutils

import "github.com/bashbox/bashbox/builtins"

// registerSearch adds: grep egrep fgrep.
func registerSearch(r *builtins.Registry) {
}
