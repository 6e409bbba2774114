package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/fd"
	"github.com/bashbox/bashbox/coreutils/find"
	"github.com/bashbox/bashbox/coreutils/xargs"
)

// registerTraversal adds: find xargs fd.
func registerTraversal(r *builtins.Registry) {
	r.Register("find", find.Run)
	r.Register("xargs", xargs.Run)
	r.Register("fd", fd.Run)
}
