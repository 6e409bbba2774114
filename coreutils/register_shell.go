package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/echo"
)

// registerShell adds the /usr/bin versions of commands that are also shell
// builtins, for the commands that run others (xargs, find -exec, env).
func registerShell(r *builtins.Registry) {
	r.Register("echo", echo.Run)
}
