package tee

import (
	"io"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func readFile(t *testing.T, fs builtins.FS, name string) string {
	t.Helper()
	f, err := fs.Open(name)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	return string(b)
}

func TestTee(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"old": "keep\n", "dir/": ""}, Stdin: "data\n"}
	r := env.Run(Run, "tee", "new", "old", "dir", "nodir/x")
	if r.Stdout != "data\n" || r.Code != 1 {
		t.Fatalf("got %q %d", r.Stdout, r.Code)
	}
	if r.Stderr != "tee: dir: Is a directory\ntee: nodir/x: No such file or directory\n" {
		t.Errorf("stderr %q", r.Stderr)
	}
	if got := readFile(t, r.FS, "/work/new"); got != "data\n" {
		t.Errorf("new = %q", got)
	}
	if got := readFile(t, r.FS, "/work/old"); got != "data\n" {
		t.Errorf("old = %q", got)
	}

	r = env.Run(Run, "tee", "-a", "old", "-")
	if r.Stdout != "data\n" || r.Code != 0 {
		t.Fatalf("append: got %q %d", r.Stdout, r.Code)
	}
	if got := readFile(t, r.FS, "/work/old"); got != "keep\ndata\n" {
		t.Errorf("appended old = %q", got)
	}
	if got := readFile(t, r.FS, "/work/-"); got != "data\n" {
		t.Errorf("file - = %q", got)
	}

	r = env.Run(Run, "tee", "/dev/stderr")
	if r.Stdout != "data\n" || r.Stderr != "data\n" {
		t.Errorf("/dev/stderr: %q %q", r.Stdout, r.Stderr)
	}
}

func TestTeeBrokenPipe(t *testing.T) {
	env := cmdtest.Env{Stdin: "abc\n", PipeAfter: 1}
	fsys := env.NewFS()
	run := func(args ...string) (int, string) {
		r := env.RunIn(fsys, Run, args...)
		return r.Code, r.Stderr
	}
	if code, _ := run("tee", "f"); code != 141 {
		t.Errorf("default: code %d", code)
	}
	if code, errs := run("tee", "-p", "g"); code != 0 || errs != "" {
		t.Errorf("-p: code %d %q", code, errs)
	}
	if code, errs := run("tee", "--output-error=warn", "h"); code != 1 || !strings.Contains(errs, "standard output") {
		t.Errorf("warn: code %d %q", code, errs)
	}
	if b := cmdtest.ReadFile(t, fsys, "/work/g"); b != "abc\n" {
		t.Errorf("g = %q", b)
	}
}

func TestTeeGNU(t *testing.T) {
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{}, {"out"}, {"-a", "out"}, {"-i", "-p", "out"}, {"--output-error=x"}, {"--output-error=w"}, {"--output-error=exit", "nodir/x"},
		{"--frob"}, {"-z"}, {"dir"}, {"--output-error", "out"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: map[string]string{"dir/": "", "out": "old\n"}, Args: append([]string{"tee"}, a...), Stdin: "line1\nline2\n"})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
