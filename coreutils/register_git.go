package coreutils

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/git"
)

// registerGit adds git (go-git based, over the sandbox filesystem).
func registerGit(r *builtins.Registry) {
	r.Register("git", git.Run)
}
