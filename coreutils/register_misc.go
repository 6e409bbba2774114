package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/env"
	falsecmd "github.com/bashbox/bashbox/coreutils/false"
	"github.com/bashbox/bashbox/coreutils/printenv"
	"github.com/bashbox/bashbox/coreutils/sleep"
	"github.com/bashbox/bashbox/coreutils/test"
	"github.com/bashbox/bashbox/coreutils/timeout"
	truecmd "github.com/bashbox/bashbox/coreutils/true"
	"github.com/bashbox/bashbox/coreutils/yes"
)

// registerMisc adds: env printenv true false sleep test [ timeout yes.
func registerMisc(r *builtins.Registry) {
	r.Register("env", env.Run)
	r.Register("printenv", printenv.Run)
	r.Register("true", truecmd.Run)
	r.Register("false", falsecmd.Run)
	r.Register("sleep", sleep.Run)
	r.Register("test", test.Run)
	r.Register("[", test.Run)
	r.Register("timeout", timeout.Run)
	r.Register("yes", yes.Run)
}
