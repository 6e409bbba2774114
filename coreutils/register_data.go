package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/awk"
	"github.com/bashbox/bashbox/coreutils/jq"
	"github.com/bashbox/bashbox/coreutils/sqlite3"
	"github.com/bashbox/bashbox/coreutils/yq"
)

// registerData adds: awk gawk mawk jq yq sqlite3.
func registerData(r *builtins.Registry) {
	r.Register("awk", awk.Run)
	r.Register("gawk", awk.Run)
	r.Register("mawk", awk.Run)
	r.Register("jq", jq.Run)
	r.Register("yq", yq.Run)
	r.Register("sqlite3", sqlite3.Run)
}
