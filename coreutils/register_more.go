package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/chown"
	"github.com/bashbox/bashbox/coreutils/envsubst"
	"github.com/bashbox/bashbox/coreutils/groups"
	"github.com/bashbox/bashbox/coreutils/iconv"
	"github.com/bashbox/bashbox/coreutils/link"
	"github.com/bashbox/bashbox/coreutils/logname"
	"github.com/bashbox/bashbox/coreutils/nice"
	"github.com/bashbox/bashbox/coreutils/nohup"
	"github.com/bashbox/bashbox/coreutils/pathchk"
	"github.com/bashbox/bashbox/coreutils/stdbuf"
	"github.com/bashbox/bashbox/coreutils/unlink"
	"github.com/bashbox/bashbox/coreutils/which"
)

// registerMore adds: which envsubst logname groups nohup nice stdbuf
// unlink pathchk iconv chown chgrp link.
func registerMore(r *builtins.Registry) {
	r.Register("which", which.Run)
	r.Register("envsubst", envsubst.Run)
	r.Register("logname", logname.Run)
	r.Register("groups", groups.Run)
	r.Register("nohup", nohup.Run)
	r.Register("nice", nice.Run)
	r.Register("stdbuf", stdbuf.Run)
	r.Register("unlink", unlink.Run)
	r.Register("pathchk", pathchk.Run)
	r.Register("iconv", iconv.Run)
	r.Register("chown", chown.Run)
	r.Register("chgrp", chown.RunChgrp)
	r.Register("link", link.Run)
}
