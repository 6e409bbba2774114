package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/basenc"
	"github.com/bashbox/bashbox/coreutils/cal"
	"github.com/bashbox/bashbox/coreutils/col"
	"github.com/bashbox/bashbox/coreutils/colrm"
	"github.com/bashbox/bashbox/coreutils/csplit"
	"github.com/bashbox/bashbox/coreutils/dc"
	"github.com/bashbox/bashbox/coreutils/diff3"
	"github.com/bashbox/bashbox/coreutils/getopt"
	"github.com/bashbox/bashbox/coreutils/hexdump"
	"github.com/bashbox/bashbox/coreutils/hostid"
	"github.com/bashbox/bashbox/coreutils/look"
	"github.com/bashbox/bashbox/coreutils/ls"
	"github.com/bashbox/bashbox/coreutils/pr"
	"github.com/bashbox/bashbox/coreutils/sdiff"
	"github.com/bashbox/bashbox/coreutils/sponge"
	"github.com/bashbox/bashbox/coreutils/uu"
	"github.com/bashbox/bashbox/coreutils/zwrap"
)

// registerCmdsB adds: getopt, the z/bz/xz grep, cmp and diff wrappers.
func registerCmdsB(r *builtins.Registry) {
	r.Register("getopt", getopt.Run)
	r.Register("sponge", sponge.Run)
	r.Register("colrm", colrm.Run)
	r.Register("hostid", hostid.Run)
	r.Register("look", look.Run)
	r.Register("hd", hexdump.Run)
	r.Register("basenc", basenc.Run)
	r.Register("cal", cal.Run)
	r.Register("csplit", csplit.Run)
	r.Register("sdiff", sdiff.Run)
	r.Register("diff3", diff3.Run)
	r.Register("dc", dc.Run)
	r.Register("pr", pr.Run)
	r.Register("col", col.Run)
	r.Register("ncal", cal.Run)
	r.Register("uuencode", uu.Encode)
	r.Register("uudecode", uu.Decode)
	r.Register("dir", ls.Run)
	r.Register("vdir", ls.Run)
	for _, f := range []struct {
		prefix string
		fam    *zwrap.Family
	}{{"z", zwrap.Gzip}, {"bz", zwrap.Bzip2}, {"xz", zwrap.Xz}} {
		r.Register(f.prefix+"grep", f.fam.Grep(""))
		r.Register(f.prefix+"egrep", f.fam.Grep("-E"))
		r.Register(f.prefix+"fgrep", f.fam.Grep("-F"))
		r.Register(f.prefix+"cmp", f.fam.Diff("cmp"))
		r.Register(f.prefix+"diff", f.fam.Diff("diff"))
	}
}
