package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/grep"
)

// registerSearch adds: grep egrep fgrep.
func registerSearch(r *builtins.Registry) {
	r.Register("grep", grep.Run)
	r.Register("egrep", grep.Run)
	r.Register("fgrep", grep.Run)
}
