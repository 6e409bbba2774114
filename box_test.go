package bashbox_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/volumes"
)

// newBox builds a box over vols and closes it with the test.
func newBox(t testing.TB, cfg bashbox.Config) *bashbox.Box {
	t.Helper()
	b, err := bashbox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func run(t testing.TB, b *bashbox.Box, script string) *bashbox.Result {
	t.Helper()
	res, err := b.Run(context.Background(), bashbox.Request{Script: script})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// writeFiles writes files (path: content) below dir, mode 644.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// hostTree makes a small repository-like host directory.
func hostTree(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"README.md":        "# demo\nline two\n",
		"src/main.go":      "package main\n\nfunc main() {}\n",
		"src/util/util.go": "package util\n",
		"docs/a b.txt":     "spaces in name\n",
		"script.sh":        "#!/bin/sh\necho from script \"$@\"\n",
	}
	writeFiles(t, dir, files)
	if err := os.Chmod(filepath.Join(dir, "script.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("src/main.go", filepath.Join(dir, "link-rel")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/work/README.md", filepath.Join(dir, "link-abs")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, "link-dangling")); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	filepath.Walk(dir, func(p string, info fs.FileInfo, err error) error {
		if err == nil && info.Mode()&fs.ModeSymlink == 0 {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	return dir
}

// treeDigest records every entry of a host tree: path, mode, mtime,
// content or link target.
func treeDigest(t testing.TB, root string) string {
	t.Helper()
	var lines []string
	filepath.Walk(root, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			lines = append(lines, "error "+err.Error())
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		line := fmt.Sprintf("%s %v %d", rel, info.Mode(), info.ModTime().UnixNano())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case info.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			line += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func TestRunBasics(t *testing.T) {
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: hostTree(t), GuestPath: "/work", Mode: volumes.ReadOnly}}})
	res := run(t, b, `echo hello; pwd; echo "$HOME $USER $SHELL $LANG $TMPDIR"; exit 3`)
	want := "hello\n/work\n/home/user user /bin/bash C.UTF-8 /tmp\n"
	if res.Stdout != want || res.ExitCode != 3 {
		t.Fatalf("got %q exit %d, want %q exit 3", res.Stdout, res.ExitCode, want)
	}
}

func TestUnknownCommand(t *testing.T) {
	b := newBox(t, bashbox.Config{})
	res := run(t, b, `kubectl get pods`)
	if res.ExitCode != 127 || res.Stderr != shellPrefix(1)+"kubectl: command not found\n" {
		t.Fatalf("got exit %d stderr %q", res.ExitCode, res.Stderr)
	}
}

func TestStreamingAndCapture(t *testing.T) {
	b := newBox(t, bashbox.Config{})
	var out, errb strings.Builder
	res, err := b.Run(context.Background(), bashbox.Request{Script: "echo out; echo err >&2", Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "out\n" || errb.String() != "err\n" || res.Stdout != "out\n" || res.Stderr != "err\n" {
		t.Fatalf("stream %q/%q result %q/%q", out.String(), errb.String(), res.Stdout, res.Stderr)
	}
}

func TestStdinAndArgs(t *testing.T) {
	b := newBox(t, bashbox.Config{})
	res, err := b.Run(context.Background(), bashbox.Request{Script: `read -r line; echo "$0 $1 $2 [$line]"`, Name: "prog", Args: []string{"a", "b c"}, Stdin: strings.NewReader("first\nsecond\n")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "prog a b c [first]\n" {
		t.Fatalf("got %q", res.Stdout)
	}
}

// TestRedirectedInput: a host file redirected with < reaches commands as
// a regular file (seekable, sized), in-memory files as a stream, and a
// directory fails the redirection instead of reading as empty.
func TestRedirectedInput(t *testing.T) {
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: hostTree(t), GuestPath: "/work", Mode: volumes.ReadOnly}}})
	res := run(t, b, `wc < README.md; (head -n 1; wc -l) < README.md; printf 'x\n' > /tmp/m; wc -l < /tmp/m; cat < src; echo "status $?"`)
	want := " 2  4 16\n# demo\n1\n1\nstatus 1\n"
	if res.Stdout != want || res.Stderr != shellPrefix(1)+"src: Is a directory\n" {
		t.Fatalf("got %q / %q, want %q", res.Stdout, res.Stderr, want)
	}
}

func TestConcurrentRuns(t *testing.T) {
	dir := hostTree(t)
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work"}}})
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			script := fmt.Sprintf(`x=%d; echo "$x" > /tmp/n; for j in 1 2 3; do x=$((x+1)); done; echo "$x $(< /tmp/n)"; echo mine > /work/own-%d`, i, i)
			res, err := b.Run(context.Background(), bashbox.Request{Script: script})
			if err != nil {
				errs <- err
				return
			}
			if want := fmt.Sprintf("%d %d\n", i+3, i); res.Stdout != want || res.ExitCode != 0 {
				errs <- fmt.Errorf("run %d: got %q (exit %d, stderr %q)", i, res.Stdout, res.ExitCode, res.Stderr)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "own-") {
			t.Errorf("read-only volume got %s", e.Name())
		}
	}
}

func TestStatelessCalls(t *testing.T) {
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: hostTree(t), GuestPath: "/work"}}})
	run(t, b, `export LEFT=1; cd /tmp; echo x > /tmp/state; echo y > /work/new; f() { :; }`)
	res := run(t, b, `echo "[$LEFT] $(pwd)"; test -e /tmp/state && echo tmp-kept; test -e /work/new && echo work-kept; type f 2>/dev/null || echo no-func`)
	if res.Stdout != "[] /work\nno-func\n" {
		t.Fatalf("state leaked between calls: %q", res.Stdout)
	}
}

// tick is a registry command for budget tests.
func tick(ctx context.Context, c *builtins.Call) int { return 0 }

func boom(ctx context.Context, c *builtins.Call) int { panic("deliberate failure\nsecond line") }

func TestPanicInCommandIsAnError(t *testing.T) {
	b := newBox(t, bashbox.Config{Commands: map[string]builtins.Command{"boom": boom}})
	res := run(t, b, `boom; echo "after $?"`)
	if res.Stdout != "after 2\n" {
		t.Fatalf("stdout %q", res.Stdout)
	}
	if res.Stderr != "bashbox: boom: internal error: deliberate failure\n" {
		t.Fatalf("stderr %q", res.Stderr)
	}
	// The box keeps serving.
	if res := run(t, b, "echo ok"); res.Stdout != "ok\n" {
		t.Fatalf("after panic: %q", res.Stdout)
	}
}

// TestPWDExported: PWD and OLDPWD are in the environment commands see, as
// bash exports them, and cd keeps them there.
func TestPWDExported(t *testing.T) {
	b := newBox(t, bashbox.Config{})
	res := run(t, b, `printenv PWD; cd /tmp; env | grep PWD= | sort`)
	if want := "/work\nOLDPWD=/work\nPWD=/tmp\n"; res.Stdout != want {
		t.Fatalf("got %q, want %q (stderr %q)", res.Stdout, want, res.Stderr)
	}
}

func TestRunOnClosedBox(t *testing.T) {
	b, err := bashbox.New(bashbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := b.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if res, err := b.Run(context.Background(), bashbox.Request{Script: "echo hi"}); !errors.Is(err, bashbox.ErrClosed) {
		t.Fatalf("Run after Close: %+v, %v; want ErrClosed", res, err)
	}
	if _, err := sess.Run(context.Background(), bashbox.Request{Script: "echo hi"}); !errors.Is(err, bashbox.ErrClosed) {
		t.Fatalf("Session.Run after Close: %v; want ErrClosed", err)
	}
	if _, err := b.NewSession(); !errors.Is(err, bashbox.ErrClosed) {
		t.Fatalf("NewSession after Close: %v; want ErrClosed", err)
	}
}

func TestOnlyCommands(t *testing.T) {
	b := newBox(t, bashbox.Config{OnlyCommands: []string{"echo", "cat"}})
	if got := b.Commands(); !slices.Equal(got, []string{"bash", "cat", "echo", "sh"}) {
		t.Fatalf("Commands() = %v", got)
	}
	res := run(t, b, `echo a | cat; grep a /dev/null; ls /bin | tr '\n' ' '`)
	if res.Stdout != "a\n" || !strings.Contains(res.Stderr, "grep: command not found") || !strings.Contains(res.Stderr, "ls: command not found") {
		t.Fatalf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
	if _, err := bashbox.New(bashbox.Config{OnlyCommands: []string{"echo", "nosuchcmd"}}); err == nil || !strings.Contains(err.Error(), `"nosuchcmd"`) {
		t.Fatalf("unknown OnlyCommands name: %v", err)
	}
	if all := bashbox.DefaultCommands(); !slices.Contains(all, "grep") || slices.Contains(all, "bash") {
		t.Fatalf("DefaultCommands() = %v", all)
	}
}

// shellPrefix is how the shell starts an error of line n, as bash does
// non-interactively.
func shellPrefix(n int) string { return fmt.Sprintf("bash: line %d: ", n) }

func TestNegativeLimitsRefused(t *testing.T) {
	for _, l := range []bashbox.Limits{{Timeout: -time.Second}, {MaxCommands: -1}, {MaxOutputBytes: -5}} {
		if b, err := bashbox.New(bashbox.Config{Limits: l}); err == nil || !strings.Contains(err.Error(), "negative") {
			if b != nil {
				b.Close()
			}
			t.Errorf("%+v: %v, want a refusal", l, err)
		}
	}
}

// TestWorkersReachCommands: Config.Workers is what every command sees as
// Call.Workers, in a run, in a session, and through a command's own exec
// (xargs), so an operator's bound holds for grep -r and find everywhere.
func TestWorkersReachCommands(t *testing.T) {
	show := func(ctx context.Context, c *builtins.Call) int {
		fmt.Fprintf(c.Stdout, "%d %d\n", c.Workers, c.SearchWorkers())
		return 0
	}
	b := newBox(t, bashbox.Config{Workers: 1, Commands: map[string]builtins.Command{"workers": show}})
	if res := run(t, b, `workers; echo x | xargs workers`); res.Stdout != "1 0\n1 0\n" {
		t.Fatalf("run: %q (stderr %q)", res.Stdout, res.Stderr)
	}
	s, err := b.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.Run(context.Background(), bashbox.Request{Script: "workers"})
	if err != nil || res.Stdout != "1 0\n" {
		t.Fatalf("session: %q, %v", res.Stdout, err)
	}
	if _, err := bashbox.New(bashbox.Config{Workers: -1}); err == nil {
		t.Fatal("a negative Workers was accepted")
	}
}
