package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/basename"
	"github.com/bashbox/bashbox/coreutils/cp"
	"github.com/bashbox/bashbox/coreutils/dirname"
	"github.com/bashbox/bashbox/coreutils/install"
	"github.com/bashbox/bashbox/coreutils/ln"
	"github.com/bashbox/bashbox/coreutils/mkdir"
	"github.com/bashbox/bashbox/coreutils/mktemp"
	"github.com/bashbox/bashbox/coreutils/mv"
	"github.com/bashbox/bashbox/coreutils/readlink"
	"github.com/bashbox/bashbox/coreutils/realpath"
	"github.com/bashbox/bashbox/coreutils/rm"
	"github.com/bashbox/bashbox/coreutils/rmdir"
	"github.com/bashbox/bashbox/coreutils/truncate"
)

// registerFileOps adds: cp mv rm rmdir mkdir ln readlink realpath truncate mktemp install basename dirname.
func registerFileOps(r *builtins.Registry) {
	r.Register("cp", cp.Run)
	r.Register("mv", mv.Run)
	r.Register("rm", rm.Run)
	r.Register("rmdir", rmdir.Run)
	r.Register("mkdir", mkdir.Run)
	r.Register("ln", ln.Run)
	r.Register("readlink", readlink.Run)
	r.Register("realpath", realpath.Run)
	r.Register("truncate", truncate.Run)
	r.Register("mktemp", mktemp.Run)
	r.Register("install", install.Run)
	r.Register("basename", basename.Run)
	r.Register("dirname", dirname.Run)
}
