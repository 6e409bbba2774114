package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/column"
	"github.com/bashbox/bashbox/coreutils/expand"
	fmtcmd "github.com/bashbox/bashbox/coreutils/fmt"
	"github.com/bashbox/bashbox/coreutils/fold"
	"github.com/bashbox/bashbox/coreutils/hexdump"
	"github.com/bashbox/bashbox/coreutils/nl"
	"github.com/bashbox/bashbox/coreutils/od"
	"github.com/bashbox/bashbox/coreutils/rev"
	"github.com/bashbox/bashbox/coreutils/split"
	stringscmd "github.com/bashbox/bashbox/coreutils/strings"
	"github.com/bashbox/bashbox/coreutils/tac"
	"github.com/bashbox/bashbox/coreutils/unexpand"
	"github.com/bashbox/bashbox/coreutils/xxd"
)

// registerTextFormat adds: column nl fold fmt expand unexpand rev tac split od xxd hexdump strings.
func registerTextFormat(r *builtins.Registry) {
	r.Register("column", column.Run)
	r.Register("nl", nl.Run)
	r.Register("fold", fold.Run)
	r.Register("fmt", fmtcmd.Run)
	r.Register("expand", expand.Run)
	r.Register("unexpand", unexpand.Run)
	r.Register("rev", rev.Run)
	r.Register("tac", tac.Run)
	r.Register("split", split.Run)
	r.Register("od", od.Run)
	r.Register("xxd", xxd.Run)
	r.Register("hexdump", hexdump.Run)
	r.Register("strings", stringscmd.Run)
}
