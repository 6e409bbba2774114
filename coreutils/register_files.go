package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/chmod"
	"github.com/bashbox/bashbox/coreutils/df"
	"github.com/bashbox/bashbox/coreutils/du"
	"github.com/bashbox/bashbox/coreutils/file"
	"github.com/bashbox/bashbox/coreutils/ls"
	"github.com/bashbox/bashbox/coreutils/stat"
	"github.com/bashbox/bashbox/coreutils/touch"
	"github.com/bashbox/bashbox/coreutils/tree"
)

// registerFiles adds: ls stat du df tree file chmod touch.
func registerFiles(r *builtins.Registry) {
	r.Register("ls", ls.Run)
	r.Register("stat", stat.Run)
	r.Register("du", du.Run)
	r.Register("df", df.Run)
	r.Register("tree", tree.Run)
	r.Register("file", file.Run)
	r.Register("chmod", chmod.Run)
	r.Register("touch", touch.Run)
}
