package fallback_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/volumes"
)

// needGit fails the test without git: these are security tests.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed by the fallback tests (apt-get install git)")
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x", "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// repo makes a small repository with one commit.
func repo(t *testing.T) string {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "a.txt")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

type env struct {
	box *bashbox.Box
	log *bytes.Buffer
}

func newBox(t *testing.T, dir string, mode volumes.Mode, cmds ...string) env {
	var log bytes.Buffer
	r, err := fallback.New(fallback.Config{Commands: cmds, Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	b, err := bashbox.New(bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: mode}}, Fallback: r.Run})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return env{b, &log}
}

func (e env) run(t *testing.T, script string) *bashbox.Result {
	t.Helper()
	res, err := e.box.Run(context.Background(), bashbox.Request{Script: script})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestUnknownCommandIsAConfigError(t *testing.T) {
	_, err := fallback.New(fallback.Config{Commands: []string{"no-such-binary-xyz"}})
	if err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("got %v", err)
	}
	if _, err := fallback.New(fallback.Config{Commands: []string{"bash"}}); err == nil {
		t.Fatal("bash accepted as a fallback")
	}
}

func TestGitFallbackRuns(t *testing.T) {
	needGit(t)
	dir := repo(t)
	e := newBox(t, dir, volumes.ReadWrite, "git")
	res := e.run(t, `echo two >> a.txt; git status --short | head -3; git diff > x.patch; wc -l < x.patch; git log --format=%s | head -1`)
	if res.Stdout != " M a.txt\n6\nfirst\n" && !strings.HasPrefix(res.Stdout, " M a.txt\n") {
		t.Fatalf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
	if !strings.Contains(e.log.String(), `"command":"git"`) || !strings.Contains(e.log.String(), `"exit_status":0`) {
		t.Fatalf("no audit line: %s", e.log.String())
	}
}

func TestFallbackRefusedOnReadOnlyVolume(t *testing.T) {
	needGit(t)
	e := newBox(t, repo(t), volumes.ReadOnly, "git")
	res := e.run(t, `git status`)
	want := "bashbox: git: fallback commands need a read-write volume (/work is read-only)\n"
	if res.ExitCode != 126 || res.Stderr != want {
		t.Fatalf("exit %d stderr %q", res.ExitCode, res.Stderr)
	}
	res = e.run(t, `cd /tmp && git status`)
	if res.ExitCode != 126 {
		t.Fatalf("git in /tmp: exit %d", res.ExitCode)
	}
}

func TestFallbackEnvIsTheAllowlistOnly(t *testing.T) {
	t.Setenv("FALLBACK_SECRET", "s3cr3t")
	dir := t.TempDir()
	// "env" is refused as a fallback; use git's own view of its environment.
	needGit(t)
	e := newBox(t, dir, volumes.ReadWrite, "git")
	res := e.run(t, `export SCRIPT_VAR=leak; git var GIT_EDITOR; git version >/dev/null && echo ran`)
	if strings.Contains(res.Stdout+res.Stderr, "s3cr3t") || strings.Contains(res.Stdout, "leak") {
		t.Fatalf("env leaked: %q %q", res.Stdout, res.Stderr)
	}
}

// TestMaliciousRepositoryRunsNothing: a repository whose config and hooks
// try every way to make git start a program must not create the canary.
func TestMaliciousRepositoryRunsNothing(t *testing.T) {
	needGit(t)
	dir := repo(t)
	canary := filepath.Join(t.TempDir(), "canary")
	touch := "touch " + canary
	hookDir := filepath.Join(dir, "myhooks")
	if err := os.MkdirAll(hookDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"pre-commit", "post-commit", "post-checkout", "commit-msg", "prepare-commit-msg", "post-index-change", "reference-transaction"} {
		if err := os.WriteFile(filepath.Join(hookDir, h), []byte("#!/bin/sh\n"+touch+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".git/hooks", h), []byte("#!/bin/sh\n"+touch+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	included := filepath.Join(dir, "evil.inc")
	if err := os.WriteFile(included, []byte("[core]\n\tpager = "+touch+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	configs := []string{
		"[core]\n\thooksPath = " + hookDir + "\n",
		"[core]\n\tfsmonitor = " + touch + "\n",
		"[core]\n\tsshCommand = " + touch + "\n",
		"[core]\n\tpager = " + touch + "\n",
		"[alias]\n\tst = !" + touch + "\n",
		"[include]\n\tpath = " + included + "\n",
		"[diff \"x\"]\n\ttextconv = " + touch + "\n",
		"",
	}
	base, _ := os.ReadFile(filepath.Join(dir, ".git/config"))
	if err := os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.txt diff=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range configs {
		if err := os.WriteFile(filepath.Join(dir, ".git/config"), append(append([]byte(nil), base...), cfg...), 0o644); err != nil {
			t.Fatal(err)
		}
		e := newBox(t, dir, volumes.ReadWrite, "git")
		e.run(t, `echo more >> a.txt; git status; git diff; git log -p | cat; git st; git -c core.pager=sh log; git --exec-path=/tmp status;
git -c alias.x='!touch /tmp/x' x; git commit -am msg; git checkout -q -b other; git clone --upload-pack='touch x' . y; git fetch --upload-pack=x origin; git clone ext::sh /tmp/z`)
		if _, err := os.Stat(canary); err == nil {
			t.Fatalf("canary created with config %q", cfg)
		}
	}
}

func TestFallbackKillsProcessGroupOnTimeout(t *testing.T) {
	needGit(t)
	dir := repo(t)
	// git runs a long-lived grandchild through an editor? No: use the
	// wall-clock budget against git waiting on stdin.
	r, _ := fallback.New(fallback.Config{Commands: []string{"git"}, Logger: slog.New(slog.NewJSONHandler(&bytes.Buffer{}, nil))})
	defer r.Close()
	b, _ := bashbox.New(bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}}, Fallback: r.Run, Limits: bashbox.Limits{Timeout: 500 * time.Millisecond}})
	defer b.Close()
	pr, pw, _ := os.Pipe()
	defer pw.Close()
	defer pr.Close()
	start := time.Now()
	res, _ := b.Run(context.Background(), bashbox.Request{Script: `git hash-object --stdin`, Stdin: pr})
	if res.ExitCode != 124 || time.Since(start) > 5*time.Second {
		t.Fatalf("exit %d after %v", res.ExitCode, time.Since(start))
	}
}
