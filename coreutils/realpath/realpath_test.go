package realpath_test

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/realpath"
)

func TestTable(t *testing.T) {
	files := map[string]string{"a/b/": "", "f": "x", "rel": "->a/b", "abs": "->/work/a/b", "dang": "->nope", "loop": "->loop"}
	for _, tc := range []struct {
		name           string
		args           []string
		dir            string
		stdout, stderr string
		code           int
	}{
		{"plain", []string{"realpath", "f", "rel", "abs", "dang", ".", ".."}, "", "/work/f\n/work/a/b\n/work/a/b\n/work/nope\n/work\n/\n", "", 0},
		{"from subdir", []string{"realpath", "../../f", "/work/abs/.."}, "/work/a/b", "/work/f\n/work/a\n", "", 0},
		{"missing", []string{"realpath", "nope/x"}, "", "", "realpath: nope/x: No such file or directory\n", 1},
		{"quiet", []string{"realpath", "-q", "nope/x", "f"}, "", "/work/f\n", "", 1},
		{"existing", []string{"realpath", "-e", "dang"}, "", "", "realpath: dang: No such file or directory\n", 1},
		{"missing ok", []string{"realpath", "-m", "nope/x/../y", "f/z"}, "", "/work/nope/y\n/work/f/z\n", "", 0},
		{"no symlinks", []string{"realpath", "-s", "abs/..", "rel"}, "", "/work\n/work/rel\n", "", 0},
		{"logical", []string{"realpath", "-L", "abs/.."}, "", "/work\n", "", 0},
		{"physical", []string{"realpath", "-P", "abs/.."}, "", "/work/a\n", "", 0},
		{"relative to", []string{"realpath", "--relative-to=a/b", "f", "abs", "a"}, "", "../../f\n.\n..\n", "", 0},
		{"relative base", []string{"realpath", "--relative-base=/work/a", "f", "abs"}, "", "/work/f\nb\n", "", 0},
		{"zero", []string{"realpath", "-z", "f"}, "", "/work/f\x00", "", 0},
		{"loop", []string{"realpath", "loop"}, "", "", "realpath: loop: Too many levels of symbolic links\n", 1},
		{"not dir", []string{"realpath", "f/"}, "", "", "realpath: f/: Not a directory\n", 1},
		{"empty", []string{"realpath", ""}, "", "", "realpath: '': No such file or directory\n", 1},
		{"no operand", []string{"realpath"}, "", "", "realpath: missing operand\nTry 'realpath --help' for more information.\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files, Dir: tc.dir}).Run(realpath.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
}
