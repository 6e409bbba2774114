//go:build linux

package hostsandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// requireBwrap returns a working bubblewrap backend. These are security
// tests: a machine that cannot run one (bwrap missing, user namespaces
// disabled) fails them rather than passing them unchecked.
func requireBwrap(t *testing.T) *bubblewrap {
	t.Helper()
	b, err := newBubblewrapFromPath()
	if err != nil {
		t.Fatalf("bubblewrap unusable on this machine, so the sandbox cannot be checked: %v (install bubblewrap)", err)
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
	t.Setenv(EnvSandbox, "")
	t.Setenv(EnvAllowNoSandbox, "")
	b := Select()
	if b.Name() != "fail-closed" {
		t.Fatalf("selected %s with no bwrap on PATH", b.Name())
	}
	_, err := b.Start(&Manifest{}, Request{Args: []string{"true"}})
	if err == nil || !strings.Contains(err.Error(), "bubblewrap") || !strings.Contains(err.Error(), EnvAllowNoSandbox) {
		t.Fatalf("want a refusal that says how to fix it, got %v", err)
	}
	// The explicit opt-in runs with no sandbox.
	t.Setenv(EnvAllowNoSandbox, "1")
	if b := Select(); b.Name() != "none" {
		t.Fatalf("with %s=1 selected %s", EnvAllowNoSandbox, b.Name())
	}
}

func TestSelectPrefersBubblewrapOnLinux(t *testing.T) {
	requireBwrap(t)
	t.Setenv(EnvSandbox, "")
	t.Setenv(EnvAllowNoSandbox, "1")
	if b := Select(); b.Name() != "bubblewrap" {
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
	for _, want := range []string{"ptrace=EPERM", "io_uring=EPERM", "netlink=EPERM", "netlink_hibits=EPERM", "packet=EPERM", "tcp=ok"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("strict: want %s in %q", want, out)
		}
	}
	// Control: without the filter, ptrace and netlink are not refused.
	m.Syscalls = SyscallInherit
	out, _ = runIn(t, b, m, "", exe)
	for _, want := range []string{"ptrace=ESRCH", "netlink=ok"} {
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
	_, err := b.Start(&Manifest{FSReadAllow: []string{"relative/dir"}}, Request{Args: []string{"true"}})
	if err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Fatalf("want a path refusal, got %v", err)
	}
}

func TestBwrapRefusesAllowHosts(t *testing.T) {
	b := requireBwrap(t)
	_, err := b.Start(&Manifest{Network: NetworkPolicy{Mode: NetworkAllowHosts, Hosts: []string{"example.com"}}}, Request{Args: []string{"true"}})
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
