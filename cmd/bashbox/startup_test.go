//go:build !bashbox_front

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunStartsNoHostProcess: a run that names no fallback command starts
// no host process at all. Selecting a sandbox backend probes bubblewrap
// with three processes, which once cost every `bashbox run` ~40 ms; the
// children's page faults would show any process started and waited for.
func TestRunStartsNoHostProcess(t *testing.T) {
	var before, after syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := runCLI(t, "", "run", "-c", "echo hi; ls / >/dev/null"); code != 0 || out != "hi\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after); err != nil {
		t.Fatal(err)
	}
	if after.Minflt != before.Minflt || after.Nvcsw != before.Nvcsw {
		t.Fatalf("a host process ran: children's minor faults %d -> %d", before.Minflt, after.Minflt)
	}
}

// TestFrontLinksNoHeavyPackages: the lean front's dependency graph keeps
// out what made its start-up cost twice a Go program's: afero (whose root
// package links net/http and with it crypto/tls, x509 and http2; the
// sandbox uses package vfs instead), encoding/gob (session state, which
// only the full binary saves), go-git (once linked by the change sets'
// diff), the packages the server, the host sandbox and jq bring, and
// golang.org/x/sys/cpu, which x/crypto/blake2b (b2sum, cksum) imports and
// whose CPU probing is slow on virtual machines. Every package linked runs
// its initialisation at every start.
func TestFrontLinksNoHeavyPackages(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "bashbox_front", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list -deps gave %d packages; the check would prove nothing", len(deps))
	}
	forbidden := []string{
		"github.com/spf13/afero", "net/http", "crypto/tls", "crypto/x509", "encoding/gob",
		"github.com/go-git/go-git/v5", "github.com/pjbgf/sha1cd",
		"github.com/bashbox/bashbox/serve", "github.com/bashbox/bashbox/hostsandbox",
		"github.com/bashbox/bashbox/coreutils/jq", "github.com/itchyny/gojq",
		"golang.org/x/sys/cpu", "golang.org/x/crypto/blake2b",
	}
	for _, d := range deps {
		for _, f := range forbidden {
			if d == f || strings.HasPrefix(d, f+"/") {
				t.Errorf("the lean front links %s; see why with: go list -deps -tags bashbox_front -f '{{.ImportPath}}: {{.Imports}}' ./cmd/bashbox", d)
			}
		}
	}
}

// TestRunInterruptedReportsResult: SIGINT to a `bashbox run` that has
// lasted past interruptAfter (the signal handler is installed late, see
// interruptible) cancels the script and still reports: status 130 and the
// --json result.
func TestRunInterruptedReportsResult(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	front, _ := buildPair(t)
	cmd := exec.Command(front, "run", "--json", "-c", "echo started; sleep 30; echo not-reached")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "BASHBOX_LEAN_ONLY=1"}
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10*interruptAfter + 300*time.Millisecond)
	start := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("the run took %v to stop after SIGINT", took)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signaled() || cmd.ProcessState.ExitCode() != 130 {
		t.Fatalf("after SIGINT: %v (want exit status 130, not death by the signal); stdout %q", err, out.String())
	}
	if !strings.Contains(out.String(), `"exit_code":130`) || !strings.Contains(out.String(), `"stdout":"started\n"`) || strings.Contains(out.String(), "not-reached") {
		t.Fatalf("--json result after SIGINT: %q", out.String())
	}
}

// BenchmarkStartup times `bashbox run -c true` as a fresh process against
// `bash -c true` and a static Go program that only exits (the floor of any
// Go binary), paired: each iteration launches one of each, so machine load
// hits all alike. The binaries are built as `make build` ships them
// (static, stripped): the lean front, with bashbox-full beside it. Reported
// per launch: wall and CPU (user+sys, from wait4) of each, and bashbox's
// ratios to bash; the target is a ratio of 1.
//
//	go test ./cmd/bashbox -run '^$' -bench Startup -benchtime 50x
func BenchmarkStartup(b *testing.B) {
	exe, _ := buildPair(b)
	hello := filepath.Join(b.TempDir(), "hello")
	src := filepath.Join(b.TempDir(), "hello.go")
	if err := os.WriteFile(src, []byte("package main\n\nimport \"os\"\n\nfunc main() { os.Exit(0) }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", hello, src)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v: %s", err, out)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		b.Fatal(err)
	}
	launch := func(exe string, args ...string) (wall, cpu time.Duration) {
		cmd := exec.Command(exe, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "BASHBOX_LEAN_ONLY=1"}
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %s: %v: %s", exe, strings.Join(args, " "), err, out)
		}
		return time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	launch(exe, "run", "-c", "true") // page cache and dentries warm for all
	launch(bash, "-c", "true")
	launch(hello)
	var bbWall, bbCPU, shWall, shCPU, goWall, goCPU time.Duration
	n := 0
	for b.Loop() {
		w, c := launch(exe, "run", "-c", "true")
		bbWall, bbCPU = bbWall+w, bbCPU+c
		w, c = launch(bash, "-c", "true")
		shWall, shCPU = shWall+w, shCPU+c
		w, c = launch(hello)
		goWall, goCPU = goWall+w, goCPU+c
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(n) / 1e6 }
	b.ReportMetric(ms(bbWall), "bashbox-wall-ms")
	b.ReportMetric(ms(bbCPU), "bashbox-cpu-ms")
	b.ReportMetric(ms(shWall), "bash-wall-ms")
	b.ReportMetric(ms(shCPU), "bash-cpu-ms")
	b.ReportMetric(ms(goWall), "go-exit-wall-ms")
	b.ReportMetric(ms(goCPU), "go-exit-cpu-ms")
	b.ReportMetric(float64(bbWall)/float64(shWall), "x-bash-wall")
	b.ReportMetric(float64(bbCPU)/float64(max(shCPU, 1)), "x-bash-cpu")
	b.ReportMetric(0, "ns/op") // three launches per op: the figures above say it
}
