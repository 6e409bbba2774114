//go:build linux

package hostsandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// requireBwrap returns a working bubblewrap backend. These are security
// tests: when this machine cannot run one (bwrap missing, or user
// namespaces disabled) they fail rather than skip (CI installs bubblewrap).
func requireBwrap(t *testing.T) *bubblewrap {
	t.Helper()
	b, err := newBubblewrapFromPath()
	if err != nil {
		t.Fatalf("bubblewrap unusable on this machine (apt-get install bubblewrap): %v", err)
	}
	return b
}

// runIn runs argv in b under m and returns the merged output.
func runIn(t *testing.T, b Backend, m *Manifest, dir string, argv ...string) (string, Outcome) {
	t.Helper()
	out := newSyncBuffer()
	if m.Timeout == 0 {
		m.Timeout = 60 * time.Second
	}
	oc, err := Run(context.Background(), b, m, Request{Args: argv, Dir: dir, Stdout: out, Stderr: out})
	if err != nil {
		t.Fatalf("Run(%q): %v", argv, err)
	}
	return out.String(), oc
}

func TestBwrapWriteOutsideWriteAllowFails(t *testing.T) {
	b := requireBwrap(t)
	work := t.TempDir()
	readOnly := t.TempDir()
	elsewhere := t.TempDir()
	m := &Manifest{FSWriteAllow: []string{work}, FSReadAllow: []string{readOnly}, Env: baseEnv()}
	out, oc := runIn(t, b, m, work, "/bin/sh", "-c",
		fmt.Sprintf("echo in > %s/ok; echo ro > %s/no; echo other > %s/no; echo done", work, readOnly, elsewhere))
	if oc.ExitCode != 0 || !strings.Contains(out, "done") {
		t.Fatalf("exit %d, output %q", oc.ExitCode, out)
	}
	if data, err := os.ReadFile(filepath.Join(work, "ok")); err != nil || string(data) != "in\n" {
		t.Fatalf("write inside fs_write_allow did not land: %v %q", err, data)
	}
	mustNotExist(t, filepath.Join(readOnly, "no"))
	mustNotExist(t, filepath.Join(elsewhere, "no"))
	if !strings.Contains(out, "Read-only file system") {
		t.Errorf("expected a read-only error for the fs_read_allow path, got %q", out)
	}
}

func TestBwrapReadOutsideAllowListsFails(t *testing.T) {
	b := requireBwrap(t)
	work := t.TempDir()
	secretDir := t.TempDir()
	secret := filepath.Join(secretDir, "secret.txt")
	writeFile(t, secret, "TOPSECRET")
	m := &Manifest{FSWriteAllow: []string{work}, Env: baseEnv()}
	out, oc := runIn(t, b, m, work, "/bin/cat", secret)
	if oc.ExitCode == 0 || strings.Contains(out, "TOPSECRET") {
		t.Fatalf("read outside the allow lists succeeded: exit %d, %q", oc.ExitCode, out)
	}
	// Control: the same file is readable once listed.
	m.FSReadAllow = []string{secretDir}
	out, oc = runIn(t, b, m, work, "/bin/cat", secret)
	if oc.ExitCode != 0 || out != "TOPSECRET" {
		t.Fatalf("listed read failed: exit %d, %q", oc.ExitCode, out)
	}
}

func TestBwrapMasksSystemSecrets(t *testing.T) {
	b := requireBwrap(t)
	if _, err := os.Stat("/etc/shadow"); err != nil {
		t.Skip("no /etc/shadow on this machine")
	}
	// Masked by a device node on a nodev mount: opening it fails.
	out, _ := runIn(t, b, &Manifest{Env: baseEnv()}, "", "/bin/cat", "/etc/shadow")
	if strings.Contains(out, "root:") {
		t.Fatalf("/etc/shadow is readable inside the sandbox: %q", out)
	}
}

func TestBwrapNetworkDenyBlocksLoopbackListener(t *testing.T) {
	b := requireBwrap(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	script := fmt.Sprintf("if exec 3<>/dev/tcp/127.0.0.1/%d; then echo CONNECTED; else echo REFUSED; fi", port)
	out, _ := runIn(t, b, &Manifest{Network: NetworkPolicy{Mode: NetworkDeny}, Env: baseEnv()}, "", "/bin/bash", "-c", script)
	if !strings.Contains(out, "REFUSED") || strings.Contains(out, "CONNECTED") {
		t.Fatalf("deny: the sandbox reached the host's loopback listener: %q", out)
	}
	out, _ = runIn(t, b, &Manifest{Network: NetworkPolicy{Mode: NetworkInherit}, Env: baseEnv()}, "", "/bin/bash", "-c", script)
	if !strings.Contains(out, "CONNECTED") {
		t.Fatalf("inherit: expected to reach the listener, got %q", out)
	}
}

func TestBwrapEnvironmentIsOnlyTheManifests(t *testing.T) {
	b := requireBwrap(t)
	t.Setenv("HOSTSANDBOX_PLANTED_API_KEY", "planted-secret-value")
	m := &Manifest{Env: append(baseEnv(), [2]string{"VISIBLE", "yes"})}
	out, _ := runIn(t, b, m, "", "/usr/bin/env")
	if strings.Contains(out, "planted-secret-value") {
		t.Fatalf("host secret leaked into the sandbox: %q", out)
	}
	if !strings.Contains(out, "VISIBLE=yes") {
		t.Fatalf("manifest env missing: %q", out)
	}
}

func TestBwrapTimeoutKillsGrandchildAndReturnsInTime(t *testing.T) {
	b := requireBwrap(t)
	work := t.TempDir()
	// The grandchild detaches into its own session and holds the output
	// pipe; the marker proves it did not survive.
	marker := filepath.Join(work, "survived")
	script := fmt.Sprintf("(setsid sh -c 'sleep 4; echo x > %s' &) ; sleep 30", marker)
	m := &Manifest{FSWriteAllow: []string{work}, Env: baseEnv(), Timeout: time.Second}
	start := time.Now()
	_, oc := runIn(t, b, m, work, "/bin/sh", "-c", script)
	elapsed := time.Since(start)
	if !oc.TimedOut || oc.ExitCode != ExitTimedOut {
		t.Fatalf("expected a timeout, got %+v", oc)
	}
	if elapsed > time.Second+OutputDrainDelay+5*time.Second {
		t.Fatalf("returned after %v; want about the timeout plus the drain delay", elapsed)
	}
	time.Sleep(5 * time.Second)
	mustNotExist(t, marker)
}

func TestBwrapProtectsGitHooksInWritableRoot(t *testing.T) {
	b := requireBwrap(t)
	work := t.TempDir()
	writeFile(t, filepath.Join(work, ".git", "config"), "[core]\n")
	writeFile(t, filepath.Join(work, ".bashrc"), "# rc\n")
	if err := os.Mkdir(filepath.Join(work, ".git", "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	m := &Manifest{FSWriteAllow: []string{work}, Env: baseEnv()}
	out, _ := runIn(t, b, m, work, "/bin/sh", "-c",
		"echo evil > .git/hooks/pre-commit; echo evil >> .git/config; echo evil >> .bashrc; echo fine > .git/objects/x; echo done")
	mustNotExist(t, filepath.Join(work, ".git", "hooks", "pre-commit"))
	for _, f := range []string{".git/config", ".bashrc"} {
		data, _ := os.ReadFile(filepath.Join(work, f))
		if strings.Contains(string(data), "evil") {
			t.Errorf("%s was modified from inside the sandbox", f)
		}
	}
	if _, err := os.Stat(filepath.Join(work, ".git", "objects", "x")); err != nil {
		t.Errorf("ordinary writes inside .git should work: %v (output %q)", err, out)
	}
}

func TestBwrapPrivateHome(t *testing.T) {
	b := requireBwrap(t)
	m := &Manifest{Env: [][2]string{{"PATH", "/usr/bin:/bin"}, {"HOME", "/home/sandboxed-user"}}}
	out, oc := runIn(t, b, m, "", "/bin/sh", "-c", "mkdir -p ~/.cache/x && echo ok > ~/.cache/x/f && cat ~/.cache/x/f")
	if oc.ExitCode != 0 || strings.TrimSpace(out) != "ok" {
		t.Fatalf("private HOME not writable: exit %d %q", oc.ExitCode, out)
	}
	// A shared path inside HOME stays visible over the private HOME.
	shared := t.TempDir()
	writeFile(t, filepath.Join(shared, "f"), "shared-content")
	m = &Manifest{FSReadAllow: []string{shared}, Env: [][2]string{{"PATH", "/usr/bin:/bin"}, {"HOME", filepath.Dir(shared)}}}
	out, _ = runIn(t, b, m, "", "/bin/cat", filepath.Join(shared, "f"))
	if out != "shared-content" {
		t.Fatalf("allowed path inside HOME hidden by the private HOME: %q", out)
	}
}

func TestFailClosedWhenBwrapHiddenFromPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	b := Select(Policy{})
	if b.Name() != "fail-closed" {
		t.Fatalf("selected %s with no bwrap on PATH", b.Name())
	}
	_, err := b.Start(context.Background(), &Manifest{}, Request{Args: []string{"true"}})
	if err == nil || !strings.Contains(err.Error(), "bubblewrap") || !strings.Contains(err.Error(), EnvAllowNoSandbox) {
		t.Fatalf("want a refusal that says how to fix it, got %v", err)
	}
	if missing, ok := Unavailable(b); !ok || missing != "bubblewrap not found" {
		t.Fatalf("Unavailable = %q, %v", missing, ok)
	}
	// The explicit opt-in runs with no sandbox.
	if b := Select(Policy{AllowNoSandbox: true}); b.Name() != "none" {
		t.Fatalf("with %s=1 selected %s", EnvAllowNoSandbox, b.Name())
	}
}

func TestSelectPrefersBubblewrapOnLinux(t *testing.T) {
	requireBwrap(t)
	if b := Select(Policy{AllowNoSandbox: true}); b.Name() != "bubblewrap" {
		t.Fatalf("selected %s", b.Name())
	}
}

func TestLandlockHelperBlocksPathsOutsideRules(t *testing.T) {
	if landlockABI() == 0 {
		t.Skip("kernel without Landlock")
	}
	allowed := t.TempDir()
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "secret"), "TOPSECRET")
	rules := landlockRules{Read: []string{"/usr", "/lib", "/lib64", "/bin", "/etc", "/dev"}, Write: []string{allowed}}
	script := fmt.Sprintf("echo a > %s/ok && echo wrote-allowed; echo b > %s/no || echo write-denied; cat %s/secret || echo read-denied",
		allowed, other, other)
	argv, err := helperArgs(testExe(t), helperConfig{Landlock: &rules}, []string{"/bin/sh", "-c", script})
	if err != nil {
		t.Fatal(err)
	}
	// Run on the host, with no bwrap: only Landlock stands in the way.
	out := newSyncBuffer()
	oc, err := Run(context.Background(), noSandbox{}, &Manifest{Env: baseEnv(), Timeout: time.Minute}, Request{Args: argv, Stdout: out, Stderr: out})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"wrote-allowed", "write-denied", "read-denied"} {
		if !strings.Contains(got, want) {
			t.Fatalf("missing %q (exit %d): %q", want, oc.ExitCode, got)
		}
	}
	if strings.Contains(got, "TOPSECRET") {
		t.Fatalf("Landlock let the secret be read: %q", got)
	}
	mustNotExist(t, filepath.Join(other, "no"))
}

func TestLandlockInsideBwrapDeniesTCPUnderNetworkDeny(t *testing.T) {
	b := requireBwrap(t)
	if landlockABI() < 4 {
		t.Skip("kernel Landlock ABI below 4 has no TCP rules")
	}
	exe := testExe(t)
	m := &Manifest{FSReadAllow: []string{filepath.Dir(exe)}, Env: append(baseEnv(), [2]string{probeEnv, "tcpbind"})}
	out, _ := runIn(t, b, m, "", exe)
	if !strings.Contains(out, "tcpbind=EACCES") {
		t.Fatalf("with Landlock, binding a TCP port inside the sandbox should fail: %q", out)
	}
	m.DisableLandlock = true
	out, _ = runIn(t, b, m, "", exe)
	if !strings.Contains(out, "tcpbind=ok") {
		t.Fatalf("without Landlock the bind should work (control): %q", out)
	}
}

func TestSeccompStrictBlocksDangerousSyscalls(t *testing.T) {
	b := requireBwrap(t)
	exe := testExe(t)
	m := &Manifest{FSReadAllow: []string{filepath.Dir(exe)}, Env: append(baseEnv(), [2]string{probeEnv, "syscalls"}), Syscalls: SyscallStrict}
	out, oc := runIn(t, b, m, "", exe)
	if oc.ExitCode != 0 {
		t.Fatalf("probe failed under strict: exit %d %q", oc.ExitCode, out)
	}
	for _, want := range []string{"ptrace=EPERM", "io_uring=EPERM", "netlink=EPERM", "netlink_hibits=EPERM", "packet=EPERM", "tcp=ok",
		"clone_newuser=EPERM", "clone_newnet=EPERM", "clone_plain=ok", "clone3=ENOSYS", "unshare_user=EPERM"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("strict: want %s in %q", want, out)
		}
	}
	t.Logf("strict: %s", out)
	// Control: without the filter, ptrace and netlink are not refused.
	m.Syscalls = SyscallInherit
	out, _ = runIn(t, b, m, "", exe)
	t.Logf("inherit: %s", out)
	for _, want := range []string{"ptrace=ESRCH", "netlink=ok", "clone3=EINVAL"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("inherit: want %s in %q", want, out)
		}
	}
}

func TestBwrapMemoryLimit(t *testing.T) {
	b := requireBwrap(t)
	exe := testExe(t)
	m := &Manifest{FSReadAllow: []string{filepath.Dir(exe)}, Env: append(baseEnv(), [2]string{probeEnv, "alloc"})}
	out, oc := runIn(t, b, m, "", exe)
	if oc.ExitCode != 0 || !strings.Contains(out, "alloc=ok") {
		t.Fatalf("control allocation failed: exit %d %q", oc.ExitCode, out)
	}
	m.MaxMemoryBytes = 128 << 20
	out, oc = runIn(t, b, m, "", exe)
	if oc.ExitCode == 0 || strings.Contains(out, "alloc=ok") {
		t.Fatalf("256 MiB allocation succeeded under a 128 MiB limit: exit %d %q", oc.ExitCode, out)
	}
}

func TestBwrapRefusesRelativePathBeforeRunning(t *testing.T) {
	b := requireBwrap(t)
	_, err := b.Start(context.Background(), &Manifest{FSReadAllow: []string{"relative/dir"}}, Request{Args: []string{"true"}})
	if err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Fatalf("want a path refusal, got %v", err)
	}
}

func TestBwrapRefusesAllowHosts(t *testing.T) {
	b := requireBwrap(t)
	_, err := b.Start(context.Background(), &Manifest{Network: NetworkPolicy{Mode: NetworkAllowHosts, Hosts: []string{"example.com"}}}, Request{Args: []string{"true"}})
	if err == nil || !strings.Contains(err.Error(), "allow_hosts") {
		t.Fatalf("want allow_hosts refused, got %v", err)
	}
}

// countCmdline counts host processes with exactly this /proc cmdline.
func countCmdline(t *testing.T, cmdline string) int {
	t.Helper()
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && string(data) == cmdline {
			n++
		}
	}
	return n
}

// TestBwrapProtectsMissingAndNestedRepoPaths: hooks, config and
// config.worktree are protected even when they do not exist at start, in
// the root's repository, in nested ones and in submodules' git
// directories; rc files the command creates are removed afterwards; and
// the read-only placeholders leave nothing behind, even when two commands
// share them and the first ends early.
func TestBwrapProtectsMissingAndNestedRepoPaths(t *testing.T) {
	b := requireBwrap(t)
	work := t.TempDir()
	for _, d := range []string{".git/objects", "sub/proj/.git/objects", ".git/modules/m/objects"} {
		if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(work, "sub/proj/.git/config"), "[core]\n")
	m := &Manifest{FSWriteAllow: []string{work}, Env: baseEnv()}
	attack := "mkdir -p .git/hooks sub/proj/.git/hooks .git/modules/m/hooks; " +
		"for f in .git/hooks/pre-commit .git/config .git/config.worktree sub/proj/.git/hooks/post-checkout .git/modules/m/hooks/pre-commit .git/modules/m/config .envrc .bashrc; do echo evil > $f; done; " +
		"echo evil >> sub/proj/.git/config; echo fine > ok.txt; echo fine > .git/objects/x; echo done"

	// Two commands at once: the first ends early, the second attacks
	// after it, when a naively removed placeholder would be gone.
	first, err := b.Start(context.Background(), m, Request{Args: []string{"/bin/sh", "-c", "sleep 0.2"}, Stdout: newSyncBuffer(), Stderr: newSyncBuffer()})
	if err != nil {
		t.Fatal(err)
	}
	out := newSyncBuffer()
	second, err := b.Start(context.Background(), m, Request{Args: []string{"/bin/sh", "-c", "sleep 1; " + attack}, Dir: work, Stdout: out, Stderr: out})
	if err != nil {
		t.Fatal(err)
	}
	first.Wait()
	if code, err := second.Wait(); err != nil || !strings.Contains(out.String(), "done") {
		t.Fatalf("attack did not run to the end: exit %d %v %q", code, err, out.String())
	}
	for _, f := range []string{".git/hooks", ".git/config", ".git/config.worktree", "sub/proj/.git/hooks", ".git/modules/m/hooks", ".git/modules/m/config", ".envrc", ".bashrc"} {
		mustNotExist(t, filepath.Join(work, f))
	}
	if data, _ := os.ReadFile(filepath.Join(work, "sub/proj/.git/config")); strings.Contains(string(data), "evil") {
		t.Error("a nested repository's config was modified")
	}
	for _, f := range []string{"ok.txt", ".git/objects/x"} {
		if _, err := os.Stat(filepath.Join(work, f)); err != nil {
			t.Errorf("ordinary write %s failed: %v (output %q)", f, err, out.String())
		}
	}
	if !strings.Contains(out.String(), "removed "+filepath.Join(work, ".envrc")) {
		t.Errorf("the removal of a created rc file is not reported: %q", out.String())
	}
	// Opting out (fallback commands) leaves them writable.
	m.AllowRepoMetadataWrites = true
	runIn(t, b, m, work, "/bin/sh", "-c", "mkdir -p .git/hooks && echo ok > .git/hooks/post-commit")
	if _, err := os.Stat(filepath.Join(work, ".git/hooks/post-commit")); err != nil {
		t.Errorf("AllowRepoMetadataWrites: %v", err)
	}
}

// TestBwrapPrivateFilesAndNarrowEtc: files of the manifest are made inside
// the sandbox's private HOME, read-only, and nowhere on the host; a
// narrowed /etc shows only the listed entries; a file outside the private
// /tmp and HOME is refused.
func TestBwrapPrivateFilesAndNarrowEtc(t *testing.T) {
	b := requireBwrap(t)
	hostTmp := t.TempDir()
	t.Setenv("TMPDIR", hostTmp)
	work := t.TempDir()
	m := &Manifest{FSWriteAllow: []string{work}, Env: [][2]string{{"PATH", "/usr/bin:/bin"}, {"HOME", "/home/fb"}},
		SystemEtc: []string{"/etc/passwd", "/etc/group"},
		Files:     []File{{Path: "/home/fb/hooks", Dir: true}, {Path: "/home/fb/.gitconfig", Data: []byte("[core]\n\tpager = cat\n")}}}
	out, oc := runIn(t, b, m, work, "/bin/sh", "-c",
		`cat ~/.gitconfig; touch ~/hooks/x 2>/dev/null || echo hooks-ro; { echo y >> ~/.gitconfig; } 2>/dev/null || echo config-ro; `+
			`head -c 0 /etc/passwd && echo passwd; ls /etc; test -e /etc/shadow || echo no-shadow`)
	want := "[core]\n\tpager = cat\nhooks-ro\nconfig-ro\npasswd\ngroup\npasswd\nno-shadow\n"
	if oc.ExitCode != 0 || out != want {
		t.Fatalf("exit %d output %q, want %q", oc.ExitCode, out, want)
	}
	if entries, _ := os.ReadDir(hostTmp); len(entries) != 0 {
		t.Fatalf("the host TMPDIR got %d entries", len(entries))
	}
	m.Files = []File{{Path: filepath.Join(work, "x"), Data: []byte("x")}}
	if _, err := b.Start(context.Background(), m, Request{Args: []string{"true"}}); !errors.Is(err, ErrPathDenied) {
		t.Fatalf("file in a writable root: %v", err)
	}
	mustNotExist(t, filepath.Join(work, "x"))
}

// TestBwrapDropsAllCapabilities: even started by root, the command has no
// capability (it could otherwise make a disk device node or remount the
// read-only binds writable), under every syscall policy.
func TestBwrapDropsAllCapabilities(t *testing.T) {
	b := requireBwrap(t)
	exe := testExe(t)
	for _, policy := range []SyscallPolicy{SyscallInherit, SyscallStrict} {
		m := &Manifest{FSReadAllow: []string{filepath.Dir(exe)}, Env: append(baseEnv(), [2]string{probeEnv, "caps"}), Syscalls: policy}
		out, oc := runIn(t, b, m, "", exe)
		if oc.ExitCode != 0 || out != "caps=0000000000000000\n" {
			t.Errorf("%s: exit %d %q", policy, oc.ExitCode, out)
		}
	}
	work := t.TempDir()
	out, _ := runIn(t, b, &Manifest{FSWriteAllow: []string{work}, Env: baseEnv()}, work, "/bin/sh", "-c", "mknod disk b 8 0 2>&1 || echo refused")
	mustNotExist(t, filepath.Join(work, "disk"))
	if !strings.Contains(out, "refused") {
		t.Errorf("mknod of a block device: %q", out)
	}
}

// TestBwrapFileSizeLimit: MaxFileBytes stops a file at that size with
// EFBIG, and the command goes on (SIGXFSZ is ignored, not fatal).
func TestBwrapFileSizeLimit(t *testing.T) {
	b := requireBwrap(t)
	dir := t.TempDir()
	m := &Manifest{FSWriteAllow: []string{dir}, Env: baseEnv(), MaxFileBytes: 1000}
	out, oc := runIn(t, b, m, dir, "sh", "-c", "head -c 3000 /dev/zero > f; echo status=$?; head -c 900 /dev/zero > g && echo small=ok")
	fi, err := os.Stat(filepath.Join(dir, "f"))
	if err != nil || fi.Size() != 1000 {
		t.Fatalf("f: %v %v; output %q", fi, err, out)
	}
	if oc.ExitCode != 0 || !strings.Contains(out, "File too large") || !strings.Contains(out, "status=1") || !strings.Contains(out, "small=ok") {
		t.Fatalf("exit %d output %q", oc.ExitCode, out)
	}
}
