// Package coreutils holds the sandbox's commands, one package per command
// (coreutils/grep, coreutils/sort, ...), and registers them. To add a
// command: write coreutils/NAME/NAME.go with
// `func Run(ctx context.Context, c *builtins.Call) int`, add one line to the
// register file of its family, and add conformance cases.
package coreutils

import "github.com/bashbox/bashbox/builtins"

// Register adds every command of this package to r.
func Register(r *builtins.Registry) {
	registerFiles(r)
	registerFileOps(r)
	registerSearch(r)
	registerSed(r)
	registerText(r)
	registerTextFormat(r)
	registerTraversal(r)
	registerMisc(r)
	registerShell(r)
	registerDiff(r)
	registerData(r)
	registerGit(r)
	registerUtil(r)
	registerArchive(r)
	registerCompress(r)
	registerMore(r)
	registerCmdsB(r)
}
