package fallback_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/hostsandbox"
	"github.com/bashbox/bashbox/volumes"
)

// requireConfinement returns the machine's OS sandbox for fallbacks. These
// are security tests: without bubblewrap they fail, they do not skip (CI
// installs it).
func requireConfinement(t *testing.T) hostsandbox.Backend {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed by the fallback security tests: %v", err)
	}
	b := hostsandbox.Select(hostsandbox.Policy{})
	if !hostsandbox.Confining(b) {
		missing, _ := hostsandbox.Unavailable(b)
		t.Fatalf("no OS sandbox for the fallback security tests (%s): apt-get install bubblewrap", missing)
	}
	return b
}

// snapshot records every entry under the roots with its type, mode and
// content hash, to prove a tree is byte-identical after the attacks.
func snapshot(t *testing.T, roots ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			v := fi.Mode().String()
			if fi.Mode().IsRegular() {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				v += fmt.Sprintf(" %x", sha256.Sum256(data))
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				target, _ := os.Readlink(p)
				v += " -> " + target
			}
			out[p] = v
			return nil
		})
		if err != nil {
			t.Fatalf("snapshot %s: %v", root, err)
		}
	}
	return out
}

func sameSnapshot(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, v := range after {
		if before[p] != v {
			t.Errorf("%s changed: %s is now %q (was %q)", what, p, v, before[p])
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s changed: %s is gone", what, p)
		}
	}
}

// hostProcessesWith lists host processes whose command line contains
// marker (a process the attack tried to leave behind).
func hostProcessesWith(marker string) []string {
	var found []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err == nil && bytes.Contains(data, []byte(marker)) && !bytes.Contains(data, []byte("-test.")) {
			found = append(found, d.Name()+": "+strings.ReplaceAll(string(data), "\x00", " "))
		}
	}
	return found
}

// killHostProcessesWith ends, by pid, what an unconfined control attack
// left running.
func killHostProcessesWith(marker string) {
	for _, p := range hostProcessesWith(marker) {
		var pid int
		if _, err := fmt.Sscanf(p, "%d:", &pid); err == nil && pid > 0 {
			if proc, err := os.FindProcess(pid); err == nil {
				proc.Kill()
			}
		}
	}
}

type attackEnv struct {
	vol, outside, tmp, secret, secretHash string
	hostSecretEnv                         string
}

// newAttackEnv makes a repository with two commits as the volume, a canary
// directory beside it holding a secret, and a watched TMPDIR.
func newAttackEnv(t *testing.T) attackEnv {
	root := t.TempDir()
	e := attackEnv{vol: filepath.Join(root, "vol"), outside: filepath.Join(root, "outside"), tmp: filepath.Join(root, "tmp")}
	for _, d := range []string{e.vol, e.outside, e.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git(t, e.vol, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(e.vol, "a.txt"), []byte("one\n"), 0o644)
	git(t, e.vol, "add", "a.txt")
	git(t, e.vol, "commit", "-q", "-m", "first")
	os.WriteFile(filepath.Join(e.vol, "a.txt"), []byte("one\ntwo\n"), 0o644)
	git(t, e.vol, "commit", "-q", "-am", "second")
	e.secret = filepath.Join(e.outside, "secret.txt")
	if err := os.WriteFile(e.secret, []byte("TOPSECRET-canary-4242\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "hash-object", e.secret).Output()
	if err != nil {
		t.Fatal(err)
	}
	e.secretHash = strings.TrimSpace(string(out))
	e.hostSecretEnv = "HOSTONLY-s3cr3t-9931"
	t.Setenv("BASHBOX_ATTACK_SECRET", e.hostSecretEnv)
	// Everything bashbox or the sandbox might put in a temporary
	// directory would land here.
	t.Setenv("TMPDIR", e.tmp)
	return e
}

// attacks are the cases of the report that led to confinement: each tries
// to write, read or run something outside the volume. OUT is the canary
// directory, SECRET the file in it, TMP the host TMPDIR. refusedBy is the
// option the argument layer must name when it is on ("" when the attack
// is stopped by the hardening or only by the OS sandbox).
var attacks = []struct{ name, script, refusedBy string }{
	{"archive", `git archive -o OUT/x.tar HEAD`, "-o"},
	{"bundle", `git bundle create OUT/x.bundle HEAD`, "operand"},
	{"format-patch", `git format-patch -o OUT -1`, "-o"},
	{"init", `git init OUT/repo`, "operand"},
	{"init-tmpdir", `git init TMP/repo`, "operand"},
	{"log-output", `git log -1 --format=%B --output=OUT/any/path`, "--output"},
	{"worktree-add", `git worktree add OUT/dir`, "operand"},
	{"blame-contents", `git blame --contents SECRET a.txt`, "--contents"},
	{"diff-no-index", `git diff --no-index SECRET a.txt`, "operand"},
	{"hash-object", `git hash-object SECRET`, "operand"},
	{"commit-F", `git commit -q --allow-empty -F SECRET; git log -1 --format=%B`, "-F"},
	{"grep-pager", `git grep --open-files-in-pager='touch OUT/pwned-pager' one`, "--open-files-in-pager"},
	{"bisect-run", `git bisect start HEAD HEAD~1; git bisect run sh -c 'touch OUT/pwned-bisect; cat SECRET; exit 0'; git bisect reset`, "bisect run"},
	{"worktree-config-filter", `git config extensions.worktreeConfig true; git config --worktree filter.x.clean 'sh -c "id > OUT/RCE; cat SECRET; cat /proc/*/environ; (sleep 299.5 >/dev/null 2>&1 &) ; cat"'; echo '*.txt filter=x' > .gitattributes; echo hi > f.txt; git add f.txt; git diff --cached`, "config.worktree"},
	{"pager-c", `git -c core.pager='sh -c "touch OUT/pwned-c; cat SECRET; cat /proc/*/environ"' -p log -1`, "-c"},
	{"hook", `printf '#!/bin/sh\ntouch OUT/pwned-hook\ncat SECRET\n(sleep 299.5 >/dev/null 2>&1 &)\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; git -c core.hooksPath=.git/hooks commit -q --allow-empty -m hook`, "-c"},
	{"hostenv-proc", `git -c alias.x='!cat /proc/1/environ /proc/*/environ; ls /root /home; cat SECRET' x`, "-c"},
}

func (e attackEnv) script(s string) string {
	return strings.NewReplacer("SECRET", e.secret, "OUT", e.outside, "TMP", e.tmp).Replace(s)
}

// runAttacks runs every attack in a fresh environment and returns what got
// through: writes outside the volume or into TMPDIR, secrets or the host
// environment in the output, processes left behind, and (policy on)
// attacks the argument layer did not refuse by name.
func runAttacks(t *testing.T, backend hostsandbox.Backend, policyOff bool) []string {
	e := newAttackEnv(t)
	var breaches []string
	breach := func(format string, args ...any) { breaches = append(breaches, fmt.Sprintf(format, args...)) }
	before := snapshot(t, e.outside, e.tmp)
	for _, a := range attacks {
		var log bytes.Buffer
		r, err := fallback.New(fallback.Config{Commands: []string{"git"}, Backend: backend, Logger: slog.New(slog.NewJSONHandler(&log, nil))})
		if err != nil {
			t.Fatal(err)
		}
		if policyOff {
			fallback.WithoutArgumentPolicy(r)
		}
		b, err := bashbox.New(bashbox.Config{Volumes: []volumes.Volume{{HostDir: e.vol, GuestPath: "/work", Mode: volumes.ReadWrite}},
			Fallback: r.Run, Limits: bashbox.Limits{Timeout: 20 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := b.Run(context.Background(), bashbox.Request{Script: e.script(a.script)})
		b.Close()
		t.Logf("%s: exit %d in %v", a.name, res.ExitCode, time.Since(start).Round(time.Millisecond)) // for -v
		if err != nil {
			t.Fatalf("%s: %v", a.name, err)
		}
		out := res.Stdout + res.Stderr
		for _, leak := range []string{"TOPSECRET", e.secretHash, e.hostSecretEnv} {
			if strings.Contains(out, leak) {
				breach("%s: %q reached the script", a.name, leak)
			}
		}
		if !policyOff && a.refusedBy != "" && !strings.Contains(res.Stderr, a.refusedBy) {
			breach("%s: the argument layer did not refuse it naming %s: %q", a.name, a.refusedBy, res.Stderr)
		}
		if !strings.Contains(log.String(), `"command":"git"`) {
			breach("%s: no audit line", a.name)
		}
		after := snapshot(t, e.outside, e.tmp)
		for p, v := range after {
			if before[p] != v {
				breach("%s: %s written outside the volume", a.name, p)
			}
		}
		for _, p := range hostProcessesWith("299.5") {
			breach("%s: process outlived the call: %s", a.name, p)
		}
		// Start each attack from the same repository and canary state.
		os.RemoveAll(e.outside)
		os.MkdirAll(e.outside, 0o755)
		os.WriteFile(e.secret, []byte("TOPSECRET-canary-4242\n"), 0o644)
		os.Remove(filepath.Join(e.vol, ".git", "hooks", "pre-commit"))
		os.Remove(filepath.Join(e.vol, ".git", "config.worktree"))
		exec.Command("git", "-C", e.vol, "config", "--unset", "extensions.worktreeConfig").Run()
		os.Remove(filepath.Join(e.vol, ".gitattributes"))
		killHostProcessesWith("299.5")
	}
	return breaches
}

// TestFallbackAttacksHeldByOSSandboxAlone runs every attack with the
// argument policy switched off, so the OS sandbox alone must hold, then
// with both layers on: nothing is written outside the volume (the canary
// tree and the host TMPDIR stay byte-identical), no secret or host
// environment reaches the output, no process outlives the call. A control
// run without any sandbox proves the attacks and their detection work.
func TestFallbackAttacksHeldByOSSandboxAlone(t *testing.T) {
	backend := requireConfinement(t)
	t.Run("OS sandbox alone", func(t *testing.T) {
		for _, b := range runAttacks(t, backend, true) {
			t.Error(b)
		}
	})
	t.Run("both layers", func(t *testing.T) {
		for _, b := range runAttacks(t, backend, false) {
			t.Error(b)
		}
	})
	t.Run("control: no sandbox, no policy", func(t *testing.T) {
		breaches := runAttacks(t, hostsandbox.Select(hostsandbox.Policy{Sandbox: "none", AllowNoSandbox: true}), true)
		got := map[string]bool{}
		for _, b := range breaches {
			name, _, _ := strings.Cut(b, ":")
			got[name] = true
		}
		for _, a := range attacks {
			if !got[a.name] {
				t.Errorf("control: attack %s got nothing through unconfined, so it proves nothing confined", a.name)
			}
		}
	})
}
