package fileops_test

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/mv"
	"github.com/bashbox/bashbox/coreutils/rm"
)

func TestMvDiff(t *testing.T) {
	tree := map[string]string{"a": "A\n", "d/": "", "d/f": "F\n", "d/sub/g": "G\n", "d/l": "->f", "t": "T\n", "e/": "", "full/d/x": "1"}
	runDiff(t, mv.Run, []diffCase{
		{name: "rename", files: tree, args: []string{"mv", "-v", "a", "b"}},
		{name: "overwrite", files: tree, args: []string{"mv", "a", "t"}},
		{name: "into dir", files: tree, args: []string{"mv", "-v", "a", "t", "e"}},
		{name: "dir into dir", files: tree, args: []string{"mv", "-v", "d", "e"}, unordered: true},
		{name: "missing", files: tree, args: []string{"mv", "nope", "b"}},
		{name: "same", files: tree, args: []string{"mv", "a", "./a"}},
		{name: "into itself", files: tree, args: []string{"mv", "d", "d/sub"}},
		{name: "into itself 2", files: tree, args: []string{"mv", "d", "d/b"}},
		{name: "file onto dir", files: tree, args: []string{"mv", "-T", "a", "e"}},
		{name: "dir onto file", files: tree, args: []string{"mv", "-T", "d", "t"}},
		{name: "dir onto nonempty", files: tree, args: []string{"mv", "d", "full"}},
		{name: "dir onto empty", files: tree, args: []string{"mv", "-T", "d", "e"}},
		{name: "n", files: tree, args: []string{"mv", "-n", "a", "t"}},
		{name: "i no", files: tree, args: []string{"mv", "-i", "a", "t"}, stdin: "n\n"},
		{name: "i yes", files: tree, args: []string{"mv", "-vi", "a", "t"}, stdin: "yes\n"},
		{name: "f after i", files: tree, args: []string{"mv", "-if", "a", "t"}},
		{name: "u older", files: tree, args: []string{"mv", "-u", "a", "t"}, fresh: []string{"a"}},
		{name: "u newer", files: tree, args: []string{"mv", "-u", "a", "t"}, fresh: []string{"t"}},
		{name: "t", files: tree, args: []string{"mv", "-t", "e", "a", "t"}},
		{name: "t missing", files: tree, args: []string{"mv", "-t", "nope", "a"}},
		{name: "symlink", files: tree, args: []string{"mv", "d/l", "e"}},
		{name: "onto symlink", files: tree, args: []string{"mv", "a", "d/l"}},
		{name: "many not dir", files: tree, args: []string{"mv", "a", "d", "t"}},
		{name: "no args", files: tree, args: []string{"mv"}},
		{name: "one arg", files: tree, args: []string{"mv", "a"}},
		{name: "bad option", files: tree, args: []string{"mv", "-x", "a", "b"}},
		{name: "trailing slash", files: tree, args: []string{"mv", "a", "nope/"}},
		{name: "missing dir", files: tree, args: []string{"mv", "a", "nope/b"}},
		{name: "T extra", files: tree, args: []string{"mv", "-T", "a", "b", "c"}},
	})
}

func TestRmDiff(t *testing.T) {
	tree := map[string]string{"a": "A\n", "empty": "", "d/": "", "d/f": "F\n", "d/sub/g": "G\n", "d/l": "->f", "e/": "", "a b": "x"}
	runDiff(t, rm.Run, []diffCase{
		{name: "file", files: tree, args: []string{"rm", "a"}},
		{name: "verbose", files: tree, args: []string{"rm", "-v", "a", "a b"}},
		{name: "missing", files: tree, args: []string{"rm", "nope"}},
		{name: "missing f", files: tree, args: []string{"rm", "-f", "nope", "a"}},
		{name: "dir", files: tree, args: []string{"rm", "d"}},
		{name: "d empty", files: tree, args: []string{"rm", "-dv", "e"}},
		{name: "d nonempty", files: tree, args: []string{"rm", "-d", "d"}},
		{name: "r", files: tree, args: []string{"rm", "-r", "d"}},
		{name: "rv", files: tree, args: []string{"rm", "-rv", "d", "e"}, unordered: true},
		{name: "Rf", files: tree, args: []string{"rm", "-Rf", "d", "nope"}},
		{name: "dot", files: tree, args: []string{"rm", "-r", "."}},
		{name: "dotdot", files: tree, args: []string{"rm", "-rf", "d/.."}},
		{name: "d dot", files: tree, args: []string{"rm", "-r", "d/."}},
		{name: "no operand", files: tree, args: []string{"rm"}},
		{name: "no operand f", files: tree, args: []string{"rm", "-f"}},
		{name: "i", files: tree, args: []string{"rm", "-i", "a", "empty", "d/l"}, stdin: "y\nn\ny\n"},
		// One entry per directory: prompts come in listing order, which
		// differs between a host filesystem and the sandbox's.
		{name: "ri", files: map[string]string{"x/w": "1"}, args: []string{"rm", "-ri", "x"}, stdin: "y\nn\ny\n"},
		{name: "ri all", files: map[string]string{"x/y/z": "1"}, args: []string{"rm", "-ri", "x"}, stdin: "y\ny\ny\ny\ny\n"},
		{name: "ri decline descend", files: map[string]string{"x/y/z": "1"}, args: []string{"rm", "-ri", "x"}, stdin: "y\nn\ny\n"},
		{name: "ri empty", files: tree, args: []string{"rm", "-ri", "e"}, stdin: "y\n"},
		{name: "I", files: tree, args: []string{"rm", "-I", "a", "empty", "a b", "d/f"}, stdin: "n\n"},
		{name: "I yes", files: tree, args: []string{"rm", "-I", "a", "empty", "a b", "d/f"}, stdin: "y\n"},
		{name: "I r", files: tree, args: []string{"rm", "-rI", "d"}, stdin: "y\n"},
		{name: "I few", files: tree, args: []string{"rm", "-I", "a"}},
		{name: "interactive never", files: tree, args: []string{"rm", "--interactive=never", "a"}},
		{name: "interactive bad", files: tree, args: []string{"rm", "--interactive=foo", "a"}},
		{name: "interactive empty", files: tree, args: []string{"rm", "--interactive=", "a"}},
		{name: "interactive prefix", files: tree, args: []string{"rm", "--interactive=n", "a"}},
		{name: "preserve-root bad", files: tree, args: []string{"rm", "--preserve-root=x", "a"}},
		{name: "trailing slash file", files: tree, args: []string{"rm", "a/"}},
		{name: "symlink", files: tree, args: []string{"rm", "-v", "d/l"}},
		{name: "bad option", files: tree, args: []string{"rm", "-q", "a"}},
		{name: "not dir", files: tree, args: []string{"rm", "a/x"}},
	})
}
