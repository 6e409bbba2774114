package diff_test

import (
	"context"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/diff"
)

func TestTable(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		stdin string
		args  []string
		out   string
		err   string
		code  int
	}{
		{name: "normal", files: map[string]string{"a": "a\nb\nc\n", "b": "a\nB\nc\nd\n"},
			args: []string{"a", "b"}, out: "2c2\n< b\n---\n> B\n3a4\n> d\n", code: 1},
		{name: "identical", files: map[string]string{"a": "x\n", "b": "x\n"}, args: []string{"a", "b"}},
		{name: "unified labels", files: map[string]string{"a": "a\nb\nc\n", "b": "a\nB\nc\n"},
			args: []string{"-u", "--label", "A", "--label", "B", "a", "b"},
			out:  "--- A\n+++ B\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", code: 1},
		{name: "context labels", files: map[string]string{"a": "a\nb\n", "b": "a\nc\n"},
			args: []string{"-c", "-L", "A", "-L", "B", "a", "b"},
			out:  "*** A\n--- B\n***************\n*** 1,2 ****\n  a\n! b\n--- 1,2 ----\n  a\n! c\n", code: 1},
		{name: "no newline", files: map[string]string{"a": "a\nb", "b": "a\nc"},
			args: []string{"a", "b"}, out: "2c2\n< b\n\\ No newline at end of file\n---\n> c\n\\ No newline at end of file\n", code: 1},
		{name: "brief", files: map[string]string{"a": "a\n", "b": "b\n"}, args: []string{"-q", "a", "b"},
			out: "Files a and b differ\n", code: 1},
		{name: "report identical", files: map[string]string{"a": "a\n", "b": "a\n"}, args: []string{"-s", "a", "b"},
			out: "Files a and b are identical\n"},
		{name: "missing", files: map[string]string{"a": "a\n"}, args: []string{"a", "nosuch"},
			err: "diff: nosuch: No such file or directory\n", code: 2},
		{name: "new file", files: map[string]string{"a": "a\n"}, args: []string{"-N", "a", "nosuch"},
			out: "1d0\n< a\n", code: 1},
		{name: "stdin", files: map[string]string{"a": "a\n"}, stdin: "b\n", args: []string{"-", "a"},
			out: "1c1\n< b\n---\n> a\n", code: 1},
		{name: "binary", files: map[string]string{"a": "a\x00", "b": "b\x00"}, args: []string{"a", "b"},
			out: "Binary files a and b differ\n", code: 1},
		{name: "ignore all space", files: map[string]string{"a": "a b\n", "b": "ab\n"}, args: []string{"-w", "a", "b"}},
		{name: "ignore case", files: map[string]string{"a": "ABC\n", "b": "abc\n"}, args: []string{"-i", "a", "b"}},
		{name: "ignore blank", files: map[string]string{"a": "a\n\nb\n", "b": "a\nb\n"}, args: []string{"-B", "a", "b"}},
		{name: "dirs", files: map[string]string{"d1/f": "1\n", "d2/f": "2\n", "d1/only": "o\n", "d1/s/": "", "d2/s/": ""},
			args: []string{"d1", "d2"}, out: "diff d1/f d2/f\n1c1\n< 1\n---\n> 2\nOnly in d1: only\nCommon subdirectories: d1/s and d2/s\n", code: 1},
		{name: "side by side", files: map[string]string{"a": "x\ny\n", "b": "x\nz\n"}, args: []string{"-y", "-W", "20", "a", "b"},
			out: "x\tx\ny     |\tz\n", code: 1},
		{name: "ed", files: map[string]string{"a": "a\nb\n", "b": "a\nc\n"}, args: []string{"-e", "a", "b"}, out: "2c\nc\n.\n", code: 1},
		{name: "bad option", args: []string{"--frob", "a", "b"},
			err: "diff: unrecognized option '--frob'\ndiff: Try 'diff --help' for more information.\n", code: 2},
		{name: "missing operand", args: []string{"a"},
			err: "diff: missing operand after 'a'\ndiff: Try 'diff --help' for more information.\n", code: 2},
		{name: "conflicting styles", args: []string{"-u", "-c", "a", "b"},
			err: "diff: conflicting output style options\ndiff: Try 'diff --help' for more information.\n", code: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			r := env.Run(diff.Run, append([]string{"diff"}, tc.args...)...)
			if r.Stdout != tc.out || r.Stderr != tc.err || r.Code != tc.code {
				t.Errorf("got (%d) %q %q, want (%d) %q %q", r.Code, r.Stdout, r.Stderr, tc.code, tc.out, tc.err)
			}
		})
	}
}

// TestHeaderTimes checks GNU's header time format: nanoseconds and the
// zone from TZ (UTC when unset).
func TestHeaderTimes(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"a": "x\n", "b": "y\n"}}
	fsys := env.NewFS()
	t1 := time.Date(2024, 1, 2, 3, 4, 5, 123456789, time.UTC)
	t2 := time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC)
	fsys.Chtimes("/work/a", t1, t1)
	fsys.Chtimes("/work/b", t2, t2)
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{nil, "--- a\t2024-01-02 03:04:05.123456789 +0000\n+++ b\t2023-12-31 23:59:59.000000000 +0000\n"},
		{[]string{"TZ=UTC"}, "--- a\t2024-01-02 03:04:05.123456789 +0000\n+++ b\t2023-12-31 23:59:59.000000000 +0000\n"},
		{[]string{"TZ=Europe/Paris"}, "--- a\t2024-01-02 04:04:05.123456789 +0100\n+++ b\t2024-01-01 00:59:59.000000000 +0100\n"},
		{[]string{"TZ=EST5"}, "--- a\t2024-01-01 22:04:05.123456789 -0500\n+++ b\t2023-12-31 18:59:59.000000000 -0500\n"},
	} {
		e := cmdtest.Env{Env: tc.env}
		r := e.RunIn(fsys, diff.Run, "diff", "-u", "a", "b")
		want := tc.want + "@@ -1 +1 @@\n-x\n+y\n"
		if r.Stdout != want {
			t.Errorf("TZ %v: got %q, want %q", tc.env, r.Stdout, want)
		}
	}
	// A missing file (-N) shows the Epoch.
	r := env.RunIn(fsys, diff.Run, "diff", "-uN", "a", "nosuch")
	if want := "+++ nosuch\t1970-01-01 00:00:00.000000000 +0000\n"; !contains(r.Stdout, want) {
		t.Errorf("got %q, want it to contain %q", r.Stdout, want)
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || len(s) >= len(sub) && (s[:len(sub)] == sub || contains(s[1:], sub))
}

// TestCancel checks that a cancelled context stops a long comparison.
func TestCancel(t *testing.T) {
	var a, b []byte
	for i := 0; i < 20000; i++ {
		a = append(a, byte('a'+i%7), '\n')
		b = append(b, byte('a'+i%5), '\n')
	}
	env := cmdtest.Env{Files: map[string]string{"a": string(a), "b": string(b)}}
	fsys := env.NewFS()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := &builtins.Call{Args: []string{"diff", "a", "b"}, Dir: "/work", FS: fsys,
		Stdout: &discard{}, Stderr: &discard{}}
	if code := diff.Run(ctx, c); code != 2 {
		t.Errorf("cancelled diff returned %d, want 2", code)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
