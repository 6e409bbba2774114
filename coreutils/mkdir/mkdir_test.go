package mkdir_test

import (
	"io/fs"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/mkdir"
)

func TestTable(t *testing.T) {
	files := map[string]string{"f": "x", "d/": ""}
	for _, tc := range []struct {
		name           string
		args           []string
		stdout, stderr string
		code           int
		check          string
		mode           fs.FileMode
	}{
		{"plain", []string{"mkdir", "x"}, "", "", 0, "x", 0o755},
		{"verbose", []string{"mkdir", "-v", "x"}, "mkdir: created directory 'x'\n", "", 0, "x", 0o755},
		{"exists", []string{"mkdir", "d"}, "", "mkdir: cannot create directory ‘d’: File exists\n", 1, "", 0},
		{"parents", []string{"mkdir", "-pv", "a/b"}, "mkdir: created directory 'a'\nmkdir: created directory 'a/b'\n", "", 0, "a/b", 0o755},
		{"parents exist", []string{"mkdir", "-p", "d"}, "", "", 0, "d", 0o755},
		{"no parent", []string{"mkdir", "a/b"}, "", "mkdir: cannot create directory ‘a/b’: No such file or directory\n", 1, "", 0},
		{"under file", []string{"mkdir", "-p", "f/x"}, "", "mkdir: cannot create directory ‘f’: Not a directory\n", 1, "", 0},
		{"octal", []string{"mkdir", "-m", "700", "x"}, "", "", 0, "x", 0o700},
		{"symbolic", []string{"mkdir", "-m", "g-w,o=", "x"}, "", "", 0, "x", 0o750},
		{"sticky", []string{"mkdir", "-m", "1777", "x"}, "", "", 0, "x", 0o777 | fs.ModeSticky},
		{"parents keep default", []string{"mkdir", "-p", "-m", "700", "a/b"}, "", "", 0, "a", 0o755},
		{"bad mode", []string{"mkdir", "-m", "abc", "x"}, "", "mkdir: invalid mode ‘abc’\n", 1, "", 0},
		{"no operand", []string{"mkdir"}, "", "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", 1, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(mkdir.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
			if tc.check != "" {
				fi, err := res.FS.Stat("/work/" + tc.check)
				if err != nil || !fi.IsDir() || fi.Mode()&(fs.ModePerm|fs.ModeSticky) != tc.mode {
					t.Errorf("%s: %v %v, want mode %v", tc.check, fi, err, tc.mode)
				}
			}
		})
	}
}
