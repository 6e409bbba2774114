package patch_test

import (
	"context"
	"io"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/patch"
)

func readFile(t *testing.T, fsys builtins.FS, name string) (string, bool) {
	t.Helper()
	f, err := fsys.Open(name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	return string(b), true
}

func TestTable(t *testing.T) {
	good := "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
	tests := []struct {
		name   string
		files  map[string]string
		stdin  string
		args   []string
		out    string
		err    string
		code   int
		result map[string]string // expected files; "" content means absent
	}{
		{name: "apply", files: map[string]string{"f": "a\nb\nc\n"}, stdin: good,
			out: "patching file f\n", result: map[string]string{"f": "a\nB\nc\n", "f.orig": ""}},
		{name: "offset makes a backup", files: map[string]string{"f": "x\na\nb\nc\n"}, stdin: good,
			out:    "patching file f\nHunk #1 succeeded at 2 (offset 1 line).\n",
			result: map[string]string{"f": "x\na\nB\nc\n", "f.orig": "x\na\nb\nc\n"}},
		{name: "reject", files: map[string]string{"f": "a\nq\nc\n"}, stdin: good,
			out:  "patching file f\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED -- saving rejects to file f.rej\n",
			code: 1, result: map[string]string{"f": "a\nq\nc\n", "f.rej": good, "f.orig": "a\nq\nc\n"}},
		{name: "reversed", files: map[string]string{"f": "a\nB\nc\n"}, stdin: good, args: []string{"-N"},
			out:  "patching file f\nReversed (or previously applied) patch detected!  Skipping patch.\n1 out of 1 hunk ignored -- saving rejects to file f.rej\n",
			code: 1, result: map[string]string{"f": "a\nB\nc\n"}},
		{name: "create", stdin: "--- /dev/null\n+++ d/new\n@@ -0,0 +1 @@\n+hi\n", args: []string{"-p0"},
			out: "patching file d/new\n", result: map[string]string{"d/new": "hi\n"}},
		{name: "delete", files: map[string]string{"old": "bye\n"}, stdin: "--- old\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n",
			out: "patching file old\n", result: map[string]string{"old": ""}},
		{name: "garbage", stdin: "nothing here\n", err: "patch: **** Only garbage was found in the patch input.\n", code: 2},
		{name: "bad option", args: []string{"--frob"},
			err: "patch: unrecognized option '--frob'\npatch: Try 'patch --help' for more information.\n", code: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			r := env.Run(patch.Run, append([]string{"patch"}, tc.args...)...)
			if r.Stdout != tc.out || r.Stderr != tc.err || r.Code != tc.code {
				t.Errorf("got (%d) %q %q, want (%d) %q %q", r.Code, r.Stdout, r.Stderr, tc.code, tc.out, tc.err)
			}
			for name, want := range tc.result {
				got, ok := readFile(t, r.FS, "/work/"+name)
				if want == "" && ok {
					t.Errorf("%s exists with %q", name, got)
				} else if want != "" && got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

// TestCancelled checks that patch stops when its context is done.
func TestCancelled(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"f": "a\nb\nc\n"}, Stdin: "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"}
	fsys := env.NewFS()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := env.RunIn(fsys, func(_ context.Context, c *builtins.Call) int { return patch.Run(ctx, c) }, "patch")
	if r.Code != 2 {
		t.Errorf("cancelled patch returned %d, want 2", r.Code)
	}
}
