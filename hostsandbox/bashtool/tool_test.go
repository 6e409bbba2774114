package bashtool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/hostsandbox"
)

func TestMain(m *testing.M) {
	hostsandbox.ServeHelper()
	os.Exit(m.Run())
}

// newSandboxedTool returns a Tool on the machine's real sandbox. These are
// security tests: on Linux a missing bubblewrap fails them (CI installs it).
func newSandboxedTool(t *testing.T, cfg Config) (*Tool, string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("live Bash tool tests run on Linux with bubblewrap")
	}
	b := hostsandbox.Select(hostsandbox.Policy{})
	if b.Name() != "bubblewrap" {
		_, err := b.Start(context.Background(), &hostsandbox.Manifest{}, hostsandbox.Request{Args: []string{"true"}})
		t.Fatalf("bubblewrap unusable on this machine (apt-get install bubblewrap): %v", err)
	}
	if cfg.WorkDir == "" {
		cfg.WorkDir = t.TempDir()
	}
	cfg.Backend = b
	tool, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tool.Close() })
	return tool, cfg.WorkDir
}

func run(t *testing.T, tool *Tool, in Input) Result {
	t.Helper()
	res, err := tool.Run(context.Background(), in)
	if err != nil {
		t.Fatalf("Run(%q): %v", in.Command, err)
	}
	return res
}

func TestForegroundMergesOutputInOrderAndReportsExit(t *testing.T) {
	tool, work := newSandboxedTool(t, Config{})
	res := run(t, tool, Input{Command: "echo one; echo two >&2; echo three; pwd; exit 3"})
	want := "one\ntwo\nthree\n" + work + "\nexit: 3\n"
	if res.Output != want || res.ExitCode != 3 {
		t.Fatalf("got %q (exit %d), want %q", res.Output, res.ExitCode, want)
	}
	full, err := os.ReadFile(res.OutputFile)
	if err != nil || string(full) != "one\ntwo\nthree\n"+work+"\n" {
		t.Fatalf("saved output %q, %v", full, err)
	}
	res = run(t, tool, Input{Command: "true"})
	if res.Output != "" || res.ExitCode != 0 {
		t.Fatalf("silent success: %q %d", res.Output, res.ExitCode)
	}
}

func TestForegroundStdinIsClosed(t *testing.T) {
	tool, _ := newSandboxedTool(t, Config{})
	res := run(t, tool, Input{Command: "cat; echo after-cat", Timeout: 20})
	if res.TimedOut || !strings.Contains(res.Output, "after-cat") {
		t.Fatalf("cat waited on stdin: %+v", res)
	}
}

func TestForegroundTimeoutKillsGrandchild(t *testing.T) {
	tool, work := newSandboxedTool(t, Config{})
	marker := filepath.Join(work, "grandchild-survived")
	start := time.Now()
	res := run(t, tool, Input{
		Command: fmt.Sprintf("echo started; (sleep 3; touch %s) & sleep 60", marker),
		Timeout: 1,
	})
	elapsed := time.Since(start)
	if !res.TimedOut || res.ExitCode != 124 {
		t.Fatalf("want timeout, got %+v", res)
	}
	if !strings.Contains(res.Output, "started\n") || !strings.Contains(res.Output, "bash: timed out after 1s\nexit: 124\n") {
		t.Fatalf("output %q", res.Output)
	}
	if elapsed > 1*time.Second+hostsandbox.OutputDrainDelay+5*time.Second {
		t.Fatalf("returned after %v", elapsed)
	}
	time.Sleep(4 * time.Second)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the grandchild survived the timeout")
	}
}

func TestTrailingAmpersandDoesNotBlock(t *testing.T) {
	tool, _ := newSandboxedTool(t, Config{})
	start := time.Now()
	res := run(t, tool, Input{Command: "sleep 60 &", Timeout: 30})
	if res.TimedOut || time.Since(start) > 15*time.Second {
		t.Fatalf("a command ending in & blocked the call: %+v after %v", res, time.Since(start))
	}
}

func TestHostSecretIsInvisible(t *testing.T) {
	t.Setenv("BASHTOOL_PLANTED_API_KEY", "planted-secret-1")
	t.Setenv("BASHTOOL_PLANTED_TOKEN", "planted-secret-2")
	t.Setenv("BASHTOOL_PLAIN", "plain-value")
	tool, work := newSandboxedTool(t, Config{EnvAllow: []string{"BASHTOOL_*"}})
	// The denylist would refuse `env` itself; a script file hides it from
	// the denylist, so only the scrubbed environment stands in the way.
	if err := os.WriteFile(filepath.Join(work, "dump.sh"), []byte("env\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := run(t, tool, Input{Command: "bash ./dump.sh"})
	if strings.Contains(res.Output, "planted-secret") {
		t.Fatalf("host secret visible to the command:\n%s", res.Output)
	}
	if !strings.Contains(res.Output, "BASHTOOL_PLAIN=plain-value") || !strings.Contains(res.Output, "GIT_TERMINAL_PROMPT=0") {
		t.Fatalf("expected the allowed variable and the non-interactive defaults:\n%s", res.Output)
	}
	// Named exactly by the operator, a secret-shaped name passes.
	tool2, work2 := newSandboxedTool(t, Config{EnvAllow: []string{"BASHTOOL_PLANTED_TOKEN"}})
	if err := os.WriteFile(filepath.Join(work2, "dump.sh"), []byte("env\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res = run(t, tool2, Input{Command: "bash ./dump.sh"})
	if !strings.Contains(res.Output, "planted-secret-2") || strings.Contains(res.Output, "planted-secret-1") {
		t.Fatalf("exact opt-in not honoured:\n%s", res.Output)
	}
}

func TestRefusedCommandStartsNothing(t *testing.T) {
	tool, work := newSandboxedTool(t, Config{})
	marker := filepath.Join(work, "ran")
	_, err := tool.Run(context.Background(), Input{Command: "touch " + marker + "; printenv"})
	var r *RefusedError
	if !errors.As(err, &r) || r.Reason != RefusedCredentialSubcommand {
		t.Fatalf("want the chained refusal, got %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("part of a refused command ran")
	}
}

func TestNetworkDeniedByDefaultWithHint(t *testing.T) {
	t.Setenv(EnvAllowNetwork, "1") // the library never reads it
	tool, _ := newSandboxedTool(t, Config{})
	if tool.Network() != hostsandbox.NetworkDeny {
		t.Fatalf("network %s by default", tool.Network())
	}
	res := run(t, tool, Input{Command: "curl -sS --max-time 5 http://127.0.0.1:9/ || git fetch 2>/dev/null; exit 7"})
	if res.ExitCode != 7 || !strings.HasSuffix(res.Output, NetworkHint+"\n") {
		t.Fatalf("want the network hint at the end, got %q", res.Output)
	}
	res = run(t, tool, Input{Command: "ls /nonexistent"})
	if strings.Contains(res.Output, NetworkHint) {
		t.Fatalf("hint on a non-network failure: %q", res.Output)
	}
	tool2, _ := newSandboxedTool(t, Config{Network: NetworkFromEnv(func(string) string { return "TRUE" })})
	if tool2.Network() != hostsandbox.NetworkInherit {
		t.Fatalf("%s=TRUE gave network %s", EnvAllowNetwork, tool2.Network())
	}
}

func TestOutputCappedKeepingHeadAndTail(t *testing.T) {
	tool, _ := newSandboxedTool(t, Config{})
	res := run(t, tool, Input{Command: "echo FIRST-LINE; head -c 300000 /dev/zero | tr '\\0' x; echo; echo LAST-LINE"})
	if !res.Truncated || len(res.Output) > ForegroundOutputLimit+1024 {
		t.Fatalf("not capped: truncated=%v len=%d", res.Truncated, len(res.Output))
	}
	if !strings.HasPrefix(res.Output, "FIRST-LINE\n") || !strings.Contains(res.Output, "LAST-LINE") || !strings.Contains(res.Output, res.OutputFile) {
		t.Fatalf("head, tail or file path missing: %q ... %q", res.Output[:40], res.Output[len(res.Output)-200:])
	}
	fi, err := os.Stat(res.OutputFile)
	if err != nil || fi.Size() < 300000 {
		t.Fatalf("full output not saved: %v", err)
	}
}

func TestBackgroundShellStreamsAndDiesWithKill(t *testing.T) {
	tool, work := newSandboxedTool(t, Config{})
	marker := filepath.Join(work, "after-kill")
	res := run(t, tool, Input{
		Command:         fmt.Sprintf("for i in 1 2 3; do echo tick $i; sleep 0.2; done; echo oops >&2; (sleep 30.4242; touch %s) & sleep 30.4242", marker),
		RunInBackground: true,
	})
	if res.ShellID == "" || !strings.Contains(res.Output, "shell_id: "+res.ShellID) {
		t.Fatalf("no shell id: %+v", res)
	}
	var seen strings.Builder
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(seen.String(), "tick 3") && time.Now().Before(deadline) {
		o, err := tool.Output(res.ShellID)
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != StatusRunning {
			t.Fatalf("shell stopped early: %+v", o)
		}
		seen.WriteString(o.Stdout)
		time.Sleep(100 * time.Millisecond)
	}
	if got := seen.String(); got != "tick 1\ntick 2\ntick 3\n" {
		t.Fatalf("streamed %q", got)
	}
	o, err := tool.Kill(res.ShellID)
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != StatusKilled || o.ExitCode == nil {
		t.Fatalf("after kill: %+v", o)
	}
	if !strings.Contains(o.Stderr, "oops") && !strings.Contains(o.Text(), "oops") {
		// stderr may have been read before; only check it arrived at some point
		t.Logf("stderr after kill: %q", o.Stderr)
	}
	if o2, _ := tool.Output(res.ShellID); o2.Stdout != "" || o2.Status != StatusKilled {
		t.Fatalf("nothing new expected after kill: %+v", o2)
	}
	if _, err := tool.Output("no-such-shell"); !errors.Is(err, ErrUnknownShell) {
		t.Fatalf("unknown shell: %v", err)
	}
	// The backgrounded grandchild must be gone too.
	if n := countProcs(t, "sleep 30.4242"); n != 0 {
		time.Sleep(2 * time.Second)
		if n := countProcs(t, "sleep 30.4242"); n != 0 {
			t.Fatalf("%d orphaned processes survived KillShell", n)
		}
	}
}

func TestCloseKillsBackgroundShells(t *testing.T) {
	tool, _ := newSandboxedTool(t, Config{})
	for i := 0; i < 2; i++ {
		run(t, tool, Input{Command: "sleep 31.4159 & sleep 31.4159", RunInBackground: true})
	}
	deadline := time.Now().Add(20 * time.Second)
	for countProcs(t, "sleep 31.4159") < 4 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if err := tool.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if n := countProcs(t, "sleep 31.4159"); n != 0 {
		t.Fatalf("%d processes survived Close", n)
	}
	if _, err := tool.Run(context.Background(), Input{Command: "true"}); err == nil {
		t.Fatal("closed tool accepted a call")
	}
}

// countProcs counts host processes whose command line is exactly cmdline.
func countProcs(t *testing.T, cmdline string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	want := strings.ReplaceAll(cmdline, " ", "\x00") + "\x00"
	n := 0
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && string(data) == want {
			n++
		}
	}
	return n
}

func TestWriteOutsideWorkspaceFails(t *testing.T) {
	other := t.TempDir()
	tool, work := newSandboxedTool(t, Config{ReadPaths: []string{other}})
	res := run(t, tool, Input{Command: fmt.Sprintf("echo a > %s/in.txt && echo b > %s/out.txt", work, other)})
	if res.ExitCode == 0 {
		t.Fatalf("write to a read-only path succeeded: %q", res.Output)
	}
	if _, err := os.Stat(filepath.Join(work, "in.txt")); err != nil {
		t.Fatal("workspace write did not land")
	}
	if _, err := os.Stat(filepath.Join(other, "out.txt")); err == nil {
		t.Fatal("write outside the workspace landed")
	}
}

func TestNewRefusesRelativePaths(t *testing.T) {
	if _, err := New(Config{WorkDir: t.TempDir(), ReadPaths: []string{"rel"}, Backend: fakeBackend{}}); err == nil {
		t.Fatal("relative read path accepted")
	}
}

func TestTimeoutClamp(t *testing.T) {
	for in, want := range map[float64]time.Duration{0: 120 * time.Second, -3: 120 * time.Second, 5: 5 * time.Second, 1e6: 600 * time.Second, 0.5: 500 * time.Millisecond} {
		if got := clampTimeout(in); got != want {
			t.Errorf("clampTimeout(%v) = %v, want %v", in, got, want)
		}
	}
}

func TestFailClosedSurfacesAsError(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	tool, err := New(Config{WorkDir: t.TempDir(), Policy: hostsandbox.Policy{Sandbox: "none"}})
	if err != nil {
		t.Fatal(err)
	}
	defer tool.Close()
	_, err = tool.Run(context.Background(), Input{Command: "echo hi"})
	if !errors.Is(err, hostsandbox.ErrUnavailable) || !strings.Contains(err.Error(), hostsandbox.EnvAllowNoSandbox) {
		t.Fatalf("want a fail-closed error with the fix, got %v", err)
	}
}

// fakeBackend never runs anything.
type fakeBackend struct{}

func (fakeBackend) Name() string { return "fake" }
func (fakeBackend) Start(context.Context, *hostsandbox.Manifest, hostsandbox.Request) (hostsandbox.Process, error) {
	return nil, errors.New("fake backend")
}
