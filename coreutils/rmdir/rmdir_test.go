package rmdir_test

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/rmdir"
)

func TestTable(t *testing.T) {
	files := map[string]string{"f": "x", "e/": "", "a/b/c/": "", "a/g": "1", "p/q/r/": "", "l": "->/work/e"}
	for _, tc := range []struct {
		name           string
		args           []string
		stdout, stderr string
		code           int
	}{
		{"empty", []string{"rmdir", "e"}, "", "", 0},
		{"verbose", []string{"rmdir", "-v", "e"}, "rmdir: removing directory, 'e'\n", "", 0},
		{"not empty", []string{"rmdir", "a"}, "", "rmdir: failed to remove 'a': Directory not empty\n", 1},
		{"ignore", []string{"rmdir", "--ignore-fail-on-non-empty", "a"}, "", "", 0},
		{"file", []string{"rmdir", "f"}, "", "rmdir: failed to remove 'f': Not a directory\n", 1},
		{"symlink", []string{"rmdir", "l"}, "", "rmdir: failed to remove 'l': Not a directory\n", 1},
		{"missing", []string{"rmdir", "x"}, "", "rmdir: failed to remove 'x': No such file or directory\n", 1},
		{"parents", []string{"rmdir", "-p", "p/q/r"}, "", "", 0},
		{"parents stop", []string{"rmdir", "-p", "a/b/c"}, "", "rmdir: failed to remove directory 'a': Directory not empty\n", 1},
		{"parents ignore", []string{"rmdir", "-p", "--ignore-fail-on-non-empty", "a/b/c"}, "", "", 0},
		{"no operand", []string{"rmdir"}, "", "rmdir: missing operand\nTry 'rmdir --help' for more information.\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(rmdir.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
}
