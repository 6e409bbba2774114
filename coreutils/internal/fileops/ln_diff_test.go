package fileops_test

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/ln"
)

func TestLnDiff(t *testing.T) {
	tree := map[string]string{"a": "A\n", "d/": "", "d/x": "1", "b": "->a", "ld": "->d", "dl": "->nope"}
	runDiff(t, ln.Run, []diffCase{
		{name: "s", files: tree, args: []string{"ln", "-s", "a", "c"}},
		{name: "sv", files: tree, args: []string{"ln", "-sv", "a", "c"}},
		{name: "hard", files: tree, args: []string{"ln", "a", "h"}},
		{name: "hard v", files: tree, args: []string{"ln", "-v", "a", "h"}},
		{name: "hard dir", files: tree, args: []string{"ln", "d", "h"}},
		{name: "hard missing", files: tree, args: []string{"ln", "nope", "h"}},
		{name: "hard no parent", files: tree, args: []string{"ln", "a", "nod/h"}},
		{name: "hard exists", files: tree, args: []string{"ln", "a", "d/x"}},
		{name: "hard same", files: tree, args: []string{"ln", "-f", "a", "a"}},
		{name: "hard symlink P", files: tree, args: []string{"ln", "b", "h"}},
		{name: "hard symlink L", files: tree, args: []string{"ln", "-L", "b", "h"}},
		{name: "s exists", files: tree, args: []string{"ln", "-s", "a", "b"}},
		{name: "sf", files: tree, args: []string{"ln", "-sf", "d/x", "b"}},
		{name: "sf same", files: tree, args: []string{"ln", "-sf", "a", "a"}},
		{name: "sf dangling", files: tree, args: []string{"ln", "-sfv", "a", "dl"}},
		{name: "s into dir", files: tree, args: []string{"ln", "-s", "a", "d"}},
		{name: "s into dir via link", files: tree, args: []string{"ln", "-sv", "a", "ld"}},
		{name: "sn", files: tree, args: []string{"ln", "-sfn", "a", "ld"}},
		{name: "one operand", files: tree, args: []string{"ln", "-sv", "d/x"}},
		{name: "one operand exists", files: tree, args: []string{"ln", "-s", "a"}},
		{name: "many", files: tree, args: []string{"ln", "-sv", "a", "b", "d"}},
		{name: "many not dir", files: tree, args: []string{"ln", "-s", "a", "b", "nope"}},
		{name: "t", files: tree, args: []string{"ln", "-sv", "-t", "d", "a", "b"}},
		{name: "t missing", files: tree, args: []string{"ln", "-s", "-t", "nope", "a"}},
		{name: "t file", files: tree, args: []string{"ln", "-s", "-t", "a", "b"}},
		{name: "T dir", files: tree, args: []string{"ln", "-sT", "a", "d"}},
		{name: "T force dir", files: tree, args: []string{"ln", "-sTf", "a", "d"}},
		{name: "T one", files: tree, args: []string{"ln", "-T", "a"}},
		{name: "tT", files: tree, args: []string{"ln", "-t", "d", "-T", "a"}},
		{name: "r", files: tree, args: []string{"ln", "-srv", "a", "d/r"}},
		{name: "r up", files: tree, args: []string{"ln", "-sr", "d/x", "r"}},
		{name: "r into dir", files: tree, args: []string{"ln", "-srv", "a", "d"}},
		{name: "r no s", files: tree, args: []string{"ln", "-r", "a", "q"}},
		{name: "r missing parent", files: tree, args: []string{"ln", "-sr", "a", "d/y/z"}},
		{name: "i no", files: tree, args: []string{"ln", "-si", "a", "b"}, stdin: "n\n"},
		{name: "i yes", files: tree, args: []string{"ln", "-svi", "d/x", "b"}, stdin: "y\n"},
		{name: "none", files: tree, args: []string{"ln"}},
		{name: "bad", files: tree, args: []string{"ln", "-k", "a"}},
		{name: "dangling target", files: tree, args: []string{"ln", "-s", "nowhere", "z"}},
	})
}
