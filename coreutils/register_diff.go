package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/cmp"
	"github.com/bashbox/bashbox/coreutils/diff"
	"github.com/bashbox/bashbox/coreutils/patch"
)

// registerDiff adds: diff cmp patch.
func registerDiff(r *builtins.Registry) {
	r.Register("diff", diff.Run)
	r.Register("cmp", cmp.Run)
	r.Register("patch", patch.Run)
}
