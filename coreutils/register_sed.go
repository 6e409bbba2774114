package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/sed"
)

// registerSed adds: sed.
func registerSed(r *builtins.Registry) {
	r.Register("sed", sed.Run)
}
