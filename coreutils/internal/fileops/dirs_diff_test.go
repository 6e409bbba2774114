package fileops_test

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/mkdir"
	"github.com/bashbox/bashbox/coreutils/rmdir"
)

func TestMkdirDiff(t *testing.T) {
	tree := map[string]string{"f": "x", "d/": ""}
	runDiff(t, mkdir.Run, []diffCase{
		{name: "one", files: tree, args: []string{"mkdir", "x"}},
		{name: "v", files: tree, args: []string{"mkdir", "-v", "x", "y"}},
		{name: "exists", files: tree, args: []string{"mkdir", "d"}},
		{name: "exists file", files: tree, args: []string{"mkdir", "f"}},
		{name: "p exists", files: tree, args: []string{"mkdir", "-p", "d"}},
		{name: "p exists file", files: tree, args: []string{"mkdir", "-p", "f"}},
		{name: "pv", files: tree, args: []string{"mkdir", "-pv", "a/b/c", "d/e"}},
		{name: "p under file", files: tree, args: []string{"mkdir", "-p", "f/x"}},
		{name: "under file", files: tree, args: []string{"mkdir", "f/x"}},
		{name: "no parent", files: tree, args: []string{"mkdir", "a/b"}},
		{name: "m octal", files: tree, args: []string{"mkdir", "-m", "700", "x"}},
		{name: "m 1777", files: tree, args: []string{"mkdir", "-m1777", "x"}},
		{name: "m sym", files: tree, args: []string{"mkdir", "-m", "g-w,o=", "x"}},
		{name: "m plus", files: tree, args: []string{"mkdir", "--mode=+x", "x"}},
		{name: "m a=rx", files: tree, args: []string{"mkdir", "--mode", "a=rx", "x"}},
		{name: "m p", files: tree, args: []string{"mkdir", "-p", "-m", "700", "x/y/z"}},
		{name: "m bad", files: tree, args: []string{"mkdir", "-m", "foo", "x"}},
		{name: "m bad 8", files: tree, args: []string{"mkdir", "-m", "788", "x"}},
		{name: "none", files: tree, args: []string{"mkdir"}},
		{name: "p slashes", files: tree, args: []string{"mkdir", "-pv", "a//b/"}},
		{name: "trailing", files: tree, args: []string{"mkdir", "-v", "z/"}},
	})
}

func TestRmdirDiff(t *testing.T) {
	tree := map[string]string{"f": "x", "e/": "", "a/b/c/": "", "a/g": "1", "p/q/r/": "", "l": "->e"}
	runDiff(t, rmdir.Run, []diffCase{
		{name: "one", files: tree, args: []string{"rmdir", "e"}},
		{name: "v", files: tree, args: []string{"rmdir", "-v", "e", "a/b/c"}},
		{name: "nonempty", files: tree, args: []string{"rmdir", "a"}},
		{name: "ignore", files: tree, args: []string{"rmdir", "--ignore-fail-on-non-empty", "a"}},
		{name: "missing", files: tree, args: []string{"rmdir", "nope"}},
		{name: "file", files: tree, args: []string{"rmdir", "f"}},
		{name: "symlink", files: tree, args: []string{"rmdir", "l"}},
		{name: "p", files: tree, args: []string{"rmdir", "-pv", "p/q/r"}},
		{name: "p stops", files: tree, args: []string{"rmdir", "-pv", "a/b/c"}},
		{name: "p ignore", files: tree, args: []string{"rmdir", "-p", "--ignore-fail-on-non-empty", "a/b/c"}},
		{name: "p trailing", files: tree, args: []string{"rmdir", "-p", "p/q/r/"}},
		{name: "dot", files: tree, args: []string{"rmdir", "."}},
		{name: "none", files: tree, args: []string{"rmdir"}},
	})
}
