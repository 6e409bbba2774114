//go:build linux

package hostsandbox

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/elastic/go-seccomp-bpf/arch"
)

func TestStrictSeccompProgramAssembles(t *testing.T) {
	prog, err := strictSeccompProgram()
	if err != nil {
		t.Skipf("no syscall table for this architecture: %v", err)
	}
	if len(prog)%8 != 0 || len(prog)/8 < len(strictDeniedSyscalls)/2 {
		t.Fatalf("program of %d bytes", len(prog))
	}
	info, _ := arch.GetInfo("")
	// Every denied syscall number appears as a jump constant.
	consts := map[uint32]bool{}
	for i := 0; i < len(prog); i += 8 {
		consts[binary.NativeEndian.Uint32(prog[i+4:])] = true
	}
	for _, name := range []string{"ptrace", "io_uring_setup", "mount", "init_module"} {
		if nr, ok := info.SyscallNames[name]; ok && !consts[uint32(nr)] {
			t.Errorf("%s (%d) not in the filter", name, nr)
		}
	}
}

func TestNoSandboxStillScrubsEnvAndKillsGroup(t *testing.T) {
	t.Setenv("HOSTSANDBOX_PLANTED_TOKEN", "leak")
	out := newSyncBuffer()
	m := &Manifest{Env: baseEnv(), Timeout: time.Second}
	start := time.Now()
	oc, err := Run(context.Background(), noSandbox{}, m, Request{Args: []string{"/bin/sh", "-c", "env; sleep 33.2511 & sleep 33.2511"}, Stdout: out, Stderr: out})
	if err != nil {
		t.Fatal(err)
	}
	if !oc.TimedOut || time.Since(start) > 10*time.Second {
		t.Fatalf("outcome %+v after %v", oc, time.Since(start))
	}
	if strings.Contains(out.String(), "leak") || !strings.Contains(out.String(), "LANG=C.UTF-8") {
		t.Fatalf("env %q", out.String())
	}
	time.Sleep(300 * time.Millisecond)
	if n := countCmdline(t, "sleep\x0033.2511\x00"); n != 0 {
		t.Fatalf("%d processes of the group survived", n)
	}
}
