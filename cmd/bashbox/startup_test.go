package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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

// BenchmarkStartup times `bashbox run -c true` as a fresh process beside
// `bash -c true`, paired in one run: the start-up an agent pays per call.
//
//	go test ./cmd/bashbox -run '^$' -bench Startup -benchtime 50x
func BenchmarkStartup(b *testing.B) {
	exe := filepath.Join(b.TempDir(), "bashbox")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v: %s", err, out)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name, exe string
		args      []string
	}{
		{"bashbox", exe, []string{"run", "-c", "true"}},
		{"bash", bash, []string{"-c", "true"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(c.exe, c.args...)
				cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s: %v: %s", strings.Join(c.args, " "), err, out)
				}
			}
		})
	}
}
