package rm_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/rm"
)

func TestTable(t *testing.T) {
	files := map[string]string{"a": "A", "empty": "", "d/f": "F", "e/": "", "l": "->/work/d"}
	for _, tc := range []struct {
		name           string
		args           []string
		stdin          string
		stdout, stderr string
		code           int
	}{
		{"file", []string{"rm", "-v", "a"}, "", "removed 'a'\n", "", 0},
		{"missing", []string{"rm", "x"}, "", "", "rm: cannot remove 'x': No such file or directory\n", 1},
		{"missing forced", []string{"rm", "-f", "x"}, "", "", "", 0},
		{"dir", []string{"rm", "d"}, "", "", "rm: cannot remove 'd': Is a directory\n", 1},
		{"d nonempty", []string{"rm", "-d", "d"}, "", "", "rm: cannot remove 'd': Directory not empty\n", 1},
		{"d empty", []string{"rm", "-dv", "e"}, "", "removed directory 'e'\n", "", 0},
		{"recursive", []string{"rm", "-rv", "d"}, "", "removed 'd/f'\nremoved directory 'd'\n", "", 0},
		{"symlink to dir", []string{"rm", "-v", "l"}, "", "removed 'l'\n", "", 0},
		{"dot", []string{"rm", "-rf", "."}, "", "", "rm: refusing to remove '.' or '..' directory: skipping '.'\n", 1},
		{"root", []string{"rm", "-rf", "/"}, "", "", "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n", 1},
		{"root alias", []string{"rm", "-r", "//"}, "", "", "rm: it is dangerous to operate recursively on '//' (same as '/')\nrm: use --no-preserve-root to override this failsafe\n", 1},
		{"no operand", []string{"rm"}, "", "", "rm: missing operand\nTry 'rm --help' for more information.\n", 1},
		{"interactive", []string{"rm", "-i", "a", "empty"}, "n\ny\n", "", "rm: remove regular file 'a'? rm: remove regular empty file 'empty'? ", 0},
		{"interactive once", []string{"rm", "-rI", "d"}, "no\n", "", "rm: remove 1 argument recursively? ", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files, Stdin: tc.stdin}).Run(rm.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
}

func TestSymlinkTargetsKept(t *testing.T) {
	res := (&cmdtest.Env{Files: map[string]string{"keep/x": "1", "d/abs": "->/work/keep", "d/rel": "->../keep/x"}}).Run(rm.Run, "rm", "-r", "d")
	if res.Code != 0 {
		t.Fatal(res.Stderr)
	}
	if _, err := res.FS.Stat("/work/keep/x"); err != nil {
		t.Error("rm -r followed a symlink")
	}
}

func TestLargeTree(t *testing.T) {
	env := &cmdtest.Env{}
	fsys := env.NewFS()
	for i := 0; i < 50; i++ {
		for j := 0; j < 100; j++ {
			p := fmt.Sprintf("/work/big/d%d/s%d", i, j%5)
			fsys.MkdirAll(p, 0o755)
			f, _ := fsys.OpenFile(fmt.Sprintf("%s/f%d", p, j), os.O_WRONLY|os.O_CREATE, 0o644)
			f.Close()
		}
	}
	res := env.RunIn(fsys, rm.Run, "rm", "-rf", "big")
	if res.Code != 0 || res.Stderr != "" {
		t.Fatal(res.Stderr)
	}
	if _, err := fsys.Stat("/work/big"); err == nil {
		t.Error("tree still there")
	}
}
