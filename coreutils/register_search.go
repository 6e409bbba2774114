package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/grep"
	"github.com/bashbox/bashbox/coreutils/rg"
)

// registerSearch adds: grep egrep fgrep rg.
func registerSearch(r *builtins.Registry) {
	r.Register("grep", grep.Run)
	r.Register("egrep", grep.Run)
	r.Register("fgrep", grep.Run)
	r.Register("rg", rg.Run)
}
