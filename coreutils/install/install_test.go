package install_test

import (
	"io/fs"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/install"
)

func TestTable(t *testing.T) {
	files := map[string]string{"f": "x", "d/": "", "d/f": "old"}
	for _, tc := range []struct {
		name           string
		args           []string
		stdout, stderr string
		code           int
		check          string
		mode           fs.FileMode
	}{
		{"copy", []string{"install", "f", "g"}, "", "", 0, "g", 0o755},
		{"verbose replace", []string{"install", "-v", "f", "d"}, "removed 'd/f'\n'f' -> 'd/f'\n", "", 0, "d/f", 0o755},
		{"mode", []string{"install", "-m", "640", "f", "g"}, "", "", 0, "g", 0o640},
		{"symbolic mode", []string{"install", "-m", "u=rw,go=r", "f", "g"}, "", "", 0, "g", 0o644},
		{"directories", []string{"install", "-dv", "a/b"}, "install: creating directory 'a'\ninstall: creating directory 'a/b'\n", "", 0, "a/b", fs.ModeDir | 0o755},
		{"directory mode", []string{"install", "-d", "-m", "700", "a/b"}, "", "", 0, "a/b", fs.ModeDir | 0o700},
		{"leading", []string{"install", "-D", "f", "x/y/z"}, "", "", 0, "x/y/z", 0o755},
		{"target leading", []string{"install", "-D", "-t", "x/y", "f"}, "", "", 0, "x/y/f", 0o755},
		{"omit dir", []string{"install", "d", "e"}, "", "install: omitting directory 'd'\n", 1, "", 0},
		{"missing", []string{"install", "nope", "e"}, "", "install: cannot stat 'nope': No such file or directory\n", 1, "", 0},
		{"same", []string{"install", "f", "f"}, "", "install: 'f' and 'f' are the same file\n", 1, "", 0},
		{"bad mode", []string{"install", "-m", "z", "f", "g"}, "", "install: invalid mode ‘z’\n", 1, "", 0},
		{"owner ignored", []string{"install", "-o", "root", "-g", "root", "f", "g"}, "", "", 0, "g", 0o755},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(install.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
			if tc.check != "" {
				fi, err := res.FS.Stat("/work/" + tc.check)
				if err != nil || fi.Mode() != tc.mode {
					t.Errorf("%s: %v %v, want %v", tc.check, fi, err, tc.mode)
				}
			}
		})
	}
}
