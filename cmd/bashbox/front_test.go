//go:build !bashbox_front

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/conformance"
	"github.com/bashbox/bashbox/coreutils"
	"github.com/bashbox/bashbox/internal/leanscript"
)

// The two shipped binaries, built once per test process as make build
// builds them: the lean front (bashbox) and bashbox-full beside it.
var (
	pairOnce sync.Once
	pairDir  string
	pairErr  error
)

func buildPair(tb testing.TB) (front, full string) {
	tb.Helper()
	pairOnce.Do(func() {
		pairDir, pairErr = os.MkdirTemp("", "bashbox-pair-")
		if pairErr != nil {
			return
		}
		for _, b := range []struct{ out, tags string }{{fullName, ""}, {"bashbox", "bashbox_front"}} {
			cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-tags", b.tags, "-o", filepath.Join(pairDir, b.out), ".")
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				pairErr = &buildError{err: err, out: string(out)}
				return
			}
		}
	})
	if pairErr != nil {
		tb.Fatal(pairErr)
	}
	return filepath.Join(pairDir, "bashbox"), filepath.Join(pairDir, fullName)
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + ": " + e.out }

func TestMain(m *testing.M) {
	code := m.Run()
	if pairDir != "" {
		os.RemoveAll(pairDir)
	}
	os.Exit(code)
}

type outcome struct {
	stdout, stderr string
	code           int
}

// launch runs exe with args, stdin and extra environment, in dir.
func launch(t *testing.T, exe, dir, stdin string, env []string, args ...string) outcome {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s %q: %v", exe, args, err)
	}
	return outcome{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
}

// frontTable is the front's table as leanscript sees it (front.go's table).
type frontTable struct{}

func (frontTable) Lean(name string) bool  { return coreutils.Lean(name) }
func (frontTable) Known(name string) bool { return coreutils.Known(name) }

// TestFrontMatchesFull: the front gives byte-for-byte the full binary's
// stdout, stderr and exit status, both for the scripts it runs itself
// (every conformance case its check passes, run with BASHBOX_LEAN_ONLY so
// a handover would show) and for those it hands over, including a script
// read from stdin.
func TestFrontMatchesFull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	front, full := buildPair(t)
	dir := t.TempDir()
	cases, err := conformance.LoadCases("../../conformance/cases")
	if err != nil {
		t.Fatal(err)
	}
	var lean, handed, n int
	for _, c := range cases {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(c.Script), "")
		if err != nil || leanscript.Check(f, frontTable{}) != nil {
			continue
		}
		if n++; n%3 != 0 {
			continue // a third of them: two launches each
		}
		if c.Command == "dd" || strings.Contains(c.Script, "$$") || strings.Contains(c.Script, "RANDOM") || strings.Contains(c.Script, "date") || strings.Contains(c.Script, "sleep") || strings.Contains(c.Script, "&") {
			continue // not the same from one run to the next
		}
		lean++
		args := []string{"run", "--timeout", "20s", "-c", c.Script}
		want := launch(t, full, dir, "", nil, args...)
		got := launch(t, front, dir, "", []string{"BASHBOX_LEAN_ONLY=1"}, args...)
		if got != want {
			t.Errorf("%s:%d %s: front %+v, full %+v", c.File, c.Line, c.Title, got, want)
		}
	}
	if lean < 300 {
		t.Errorf("only %d conformance cases run lean", lean)
	}
	// Handed over: another subcommand, a flag the front leaves alone, a
	// command it lacks, a script from stdin, a script file.
	script := filepath.Join(dir, "s.sh")
	os.WriteFile(script, []byte("echo \"$0 $1\"; jq -n 2\n"), 0o644)
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"version"}},
		{"", []string{"run", "--max-output", "1KiB", "-c", "echo hi"}},
		{"", []string{"run", "--env", "A=1", "-c", "echo $A"}},
		{"", []string{"run", "-c", "jq -n 1; eval 'echo x'"}},
		{"echo from stdin; jq -n 3\n", []string{"run"}},
		{"echo lean from stdin\n", []string{"run"}},
		{"", []string{"run", script, "arg"}},
		{"", []string{"run", "--nosuchflag"}},
		{"", []string{"run", "--max-commands", "0", "-c", "true"}},
		{"", []string{"run", "-v", "/nonexistent:/work", "-c", "true"}},
		{"", []string{"nosuch"}},
	} {
		want := launch(t, full, dir, tc.stdin, nil, tc.args...)
		got := launch(t, front, dir, tc.stdin, nil, tc.args...)
		if got != want {
			t.Errorf("%q (stdin %q): front %+v, full %+v", tc.args, tc.stdin, got, want)
		}
		handed++
	}
	t.Logf("%d conformance cases run lean and match; %d handovers match", lean, handed)
}

// TestFrontExecTarget: the front hands over only to the bashbox-full in
// its own directory as the kernel names it, whatever PATH, argv[0], the
// working directory or a symlink to the front say (TM-EXEC-007).
func TestFrontExecTarget(t *testing.T) {
	front, _ := buildPair(t)
	decoy := t.TempDir()
	fake := "#!/bin/sh\necho DECOY\n"
	if err := os.WriteFile(filepath.Join(decoy, fullName), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(front, filepath.Join(decoy, "bashbox")); err != nil {
		t.Fatal(err)
	}
	for _, via := range []string{front, filepath.Join(decoy, "bashbox")} {
		cmd := exec.Command(via, "run", "-c", "jq -n 5")
		cmd.Args[0] = filepath.Join(decoy, "bashbox")
		cmd.Dir = decoy
		cmd.Env = []string{"PATH=" + decoy + ":" + os.Getenv("PATH"), "BASHBOX_FULL=" + filepath.Join(decoy, fullName)}
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != "5\n" {
			t.Fatalf("via %s: %v: %q (want jq's 5 from the real bashbox-full)", via, err, out)
		}
	}
	// Without a bashbox-full beside it the front says so; it looks
	// nowhere else.
	alone := filepath.Join(t.TempDir(), "bashbox")
	data, err := os.ReadFile(front)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(alone, "run", "-c", "jq -n 5")
	cmd.Dir = decoy
	cmd.Env = []string{"PATH=" + decoy}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 127 || !strings.Contains(string(out), "cannot start") || strings.Contains(string(out), "DECOY") {
		t.Fatalf("front without bashbox-full: %v: %q", err, out)
	}
}

// TestFrontMissingCommandFailsLoudly: the one way past the check (a script
// that writes a script file into a PATH directory and runs it by a lean
// name) reaches the front's failing entry for a command it does not link:
// an internal error and status 70, never output passed off as the
// command's.
func TestFrontMissingCommandFailsLoudly(t *testing.T) {
	front, _ := buildPair(t)
	script := `mkdir -p /usr/local/bin; printf '#!/bin/sh\njq -n 1\n' > /usr/local/bin/grep; chmod +x /usr/local/bin/grep; grep`
	o := launch(t, front, t.TempDir(), "", []string{"BASHBOX_LEAN_ONLY=1"}, "run", "-c", script)
	if o.code != 70 || o.stdout != "" || !strings.Contains(o.stderr, "internal error: jq is not linked") {
		t.Fatalf("got %+v", o)
	}
}
