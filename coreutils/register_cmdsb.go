package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/getopt"
)

// registerCmdsB adds: getopt.
func registerCmdsB(r *builtins.Registry) {
	r.Register("getopt", getopt.Run)
}
