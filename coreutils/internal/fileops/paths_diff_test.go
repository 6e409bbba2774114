package fileops_test

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/readlink"
	"github.com/bashbox/bashbox/coreutils/realpath"
)

var pathTree = map[string]string{"a/b/": "", "f": "x", "lb": "->a/b", "dang": "->nope", "loop": "->loop", "chain": "->lb/../b2", "a/b2/": ""}

func TestReadlinkDiff(t *testing.T) {
	tree := pathTree
	runDiff(t, readlink.Run, []diffCase{
		{name: "raw", files: tree, args: []string{"readlink", "lb", "dang"}},
		{name: "not link", files: tree, args: []string{"readlink", "f", "lb"}},
		{name: "v", files: tree, args: []string{"readlink", "-v", "f", "nope", "lb"}},
		{name: "f", files: tree, args: []string{"readlink", "-f", "dang", "lb", "f", "a/b/../b/.", "abs"}},
		{name: "f missing", files: tree, args: []string{"readlink", "-f", "nope/x", "f/x"}},
		{name: "fv missing", files: tree, args: []string{"readlink", "-fv", "nope/x", "f/x", "loop"}},
		{name: "e", files: tree, args: []string{"readlink", "-e", "dang", "lb", "chain"}},
		{name: "m", files: tree, args: []string{"readlink", "-m", "nope/../x", "f/x/y", "chain"}},
		{name: "n", files: tree, args: []string{"readlink", "-n", "lb"}},
		{name: "n many", files: tree, args: []string{"readlink", "-n", "lb", "lb"}},
		{name: "z", files: tree, args: []string{"readlink", "-z", "lb", "dang"}},
		{name: "none", files: tree, args: []string{"readlink"}},
		{name: "empty", files: tree, args: []string{"readlink", "-f", ""}},
	})
}

func TestRealpathDiff(t *testing.T) {
	tree := pathTree
	runDiff(t, realpath.Run, []diffCase{
		{name: "plain", files: tree, args: []string{"realpath", "f", "lb", "dang", ".", "a/b/.."}},
		{name: "missing", files: tree, args: []string{"realpath", "nope", "nope/x", "f/", "f/x"}},
		{name: "e", files: tree, args: []string{"realpath", "-e", "nope", "f", "dang"}},
		{name: "m", files: tree, args: []string{"realpath", "-m", "nope/x/../y", "f/x", "chain"}},
		{name: "s", files: tree, args: []string{"realpath", "-s", "lb/..", "lb", "dang"}},
		{name: "L", files: tree, args: []string{"realpath", "-L", "lb/..", "chain"}},
		{name: "P", files: tree, args: []string{"realpath", "-P", "lb/.."}},
		{name: "q", files: tree, args: []string{"realpath", "-q", "nope/x", "f"}},
		{name: "z", files: tree, args: []string{"realpath", "-z", "f", "a"}},
		{name: "relative-to", files: tree, args: []string{"realpath", "--relative-to=a", "f", "a/b", "lb", "a"}},
		{name: "relative-base", files: tree, args: []string{"realpath", "--relative-base=a", "f", "a/b", "a"}},
		{name: "relative both", files: tree, args: []string{"realpath", "--relative-to=a/b", "--relative-base=a", "f", "a/b/x", "a/c"}},
		{name: "relative to outside base", files: tree, args: []string{"realpath", "--relative-to=a", "--relative-base=a/b", "f", "a/b/x"}},
		{name: "relative-to missing", files: tree, args: []string{"realpath", "--relative-to=nope/x", "f"}},
		{name: "loop", files: tree, args: []string{"realpath", "loop"}},
		{name: "loop m", files: tree, args: []string{"realpath", "-m", "loop"}},
		{name: "empty", files: tree, args: []string{"realpath", ""}},
		{name: "none", files: tree, args: []string{"realpath"}},
	})
}
