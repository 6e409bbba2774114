package ln_test

import (
	"io"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/ln"
)

func TestTable(t *testing.T) {
	files := map[string]string{"a": "A", "d/x": "1", "b": "->a", "ld": "->/work/d"}
	for _, tc := range []struct {
		name           string
		args           []string
		stdout, stderr string
		code           int
		link, target   string
	}{
		{"symbolic", []string{"ln", "-sv", "a", "c"}, "'c' -> 'a'\n", "", 0, "c", "a"},
		{"absolute", []string{"ln", "-s", "/work/a", "c"}, "", "", 0, "c", "/work/a"},
		{"dangling", []string{"ln", "-s", "nowhere", "c"}, "", "", 0, "c", "nowhere"},
		{"exists", []string{"ln", "-s", "a", "b"}, "", "ln: failed to create symbolic link 'b': File exists\n", 1, "b", "a"},
		{"force", []string{"ln", "-sf", "d/x", "b"}, "", "", 0, "b", "d/x"},
		{"into dir via absolute link", []string{"ln", "-s", "/work/a", "ld"}, "", "", 0, "d/a", "/work/a"},
		{"no dereference", []string{"ln", "-sfn", "a", "ld"}, "", "", 0, "ld", "a"},
		{"relative", []string{"ln", "-sr", "a", "d/r"}, "", "", 0, "d/r", "../a"},
		{"relative absolute source", []string{"ln", "-sr", "/work/d/x", "r"}, "", "", 0, "r", "d/x"},
		{"one operand", []string{"ln", "-s", "/work/d/x"}, "", "", 0, "x", "/work/d/x"},
		{"hard dir", []string{"ln", "d", "h"}, "", "ln: d: hard link not allowed for directory\n", 1, "", ""},
		{"hard missing", []string{"ln", "nope", "h"}, "", "ln: failed to access 'nope': No such file or directory\n", 1, "", ""},
		{"relative needs symbolic", []string{"ln", "-r", "a", "h"}, "", "ln: cannot do --relative without --symbolic\n", 1, "", ""},
		{"no operand", []string{"ln"}, "", "ln: missing file operand\nTry 'ln --help' for more information.\n", 1, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(ln.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
			if tc.link != "" {
				got, err := res.FS.ReadlinkIfPossible("/work/" + tc.link)
				if err != nil || got != tc.target {
					t.Errorf("%s -> %q (%v), want %q", tc.link, got, err, tc.target)
				}
			}
		})
	}
}

// Hard links are emulated by copies.
func TestHardLinkCopies(t *testing.T) {
	res := (&cmdtest.Env{Files: map[string]string{"a": "content"}}).Run(ln.Run, "ln", "-v", "a", "h")
	if res.Code != 0 || res.Stdout != "'h' => 'a'\n" {
		t.Fatalf("%d %q %q", res.Code, res.Stdout, res.Stderr)
	}
	f, err := res.FS.Open("/work/h")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "content" {
		t.Errorf("h = %q", b)
	}
	if fi, _, _ := res.FS.LstatIfPossible("/work/h"); !fi.Mode().IsRegular() {
		t.Errorf("h is %v", fi.Mode())
	}
}
