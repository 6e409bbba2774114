package readlink_test

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/readlink"
)

func TestTable(t *testing.T) {
	files := map[string]string{"a/b/": "", "f": "x", "rel": "->a/b", "abs": "->/work/a", "dang": "->nope", "chain": "->abs/../f", "loop": "->loop", "out": "->/tmp/../work/f"}
	for _, tc := range []struct {
		name           string
		args           []string
		stdout, stderr string
		code           int
	}{
		{"raw", []string{"readlink", "rel", "abs", "dang"}, "a/b\n/work/a\nnope\n", "", 0},
		{"not a link", []string{"readlink", "f"}, "", "", 1},
		{"verbose", []string{"readlink", "-v", "f", "nope"}, "", "readlink: f: Invalid argument\nreadlink: nope: No such file or directory\n", 1},
		{"f", []string{"readlink", "-f", "rel", "abs", "dang", "chain", "out", "a/b/../.."}, "/work/a/b\n/work/a\n/work/nope\n/work/f\n/work/f\n/work\n", "", 0},
		{"e", []string{"readlink", "-e", "dang", "abs"}, "/work/a\n", "", 1},
		{"m", []string{"readlink", "-m", "nope/x/../y", "loop"}, "/work/nope/y\n/work/loop\n", "", 0},
		{"f loop", []string{"readlink", "-fv", "loop"}, "", "readlink: loop: Too many levels of symbolic links\n", 1},
		{"n", []string{"readlink", "-n", "rel"}, "a/b", "", 0},
		{"z", []string{"readlink", "-z", "rel", "abs"}, "a/b\x00/work/a\x00", "", 0},
		{"no operand", []string{"readlink"}, "", "readlink: missing operand\nTry 'readlink --help' for more information.\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(readlink.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
}
