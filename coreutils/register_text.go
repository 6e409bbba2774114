package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/cat"
	"github.com/bashbox/bashbox/coreutils/comm"
	"github.com/bashbox/bashbox/coreutils/cut"
	"github.com/bashbox/bashbox/coreutils/head"
	"github.com/bashbox/bashbox/coreutils/join"
	"github.com/bashbox/bashbox/coreutils/paste"
	"github.com/bashbox/bashbox/coreutils/seq"
	"github.com/bashbox/bashbox/coreutils/sort"
	"github.com/bashbox/bashbox/coreutils/tail"
	"github.com/bashbox/bashbox/coreutils/tee"
	"github.com/bashbox/bashbox/coreutils/tr"
	"github.com/bashbox/bashbox/coreutils/uniq"
	"github.com/bashbox/bashbox/coreutils/wc"
)

// registerText adds: cat head tail wc sort uniq cut tr tee seq comm join paste.
func registerText(r *builtins.Registry) {
	r.Register("cat", cat.Run)
	r.Register("head", head.Run)
	r.Register("tail", tail.Run)
	r.Register("wc", wc.Run)
	r.Register("sort", sort.Run)
	r.Register("uniq", uniq.Run)
	r.Register("cut", cut.Run)
	r.Register("tr", tr.Run)
	r.Register("tee", tee.Run)
	r.Register("seq", seq.Run)
	r.Register("comm", comm.Run)
	r.Register("join", join.Run)
	r.Register("paste", paste.Run)
}
