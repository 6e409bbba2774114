//go:build linux

package hostsandbox

import (
	"context"
	"encoding/binary"
	"slices"
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

// The filter's own table of the running architecture (x/sys/unix constants
// on amd64 and arm64) agrees with go-seccomp-bpf's on every syscall the
// filter names, present or absent, and on the audit arch and x32 bit: a
// wrong or missing number would let a denied syscall through.
func TestFilterArchMatchesSeccompTables(t *testing.T) {
	a, err := filterArch()
	if err != nil {
		t.Fatal(err)
	}
	info, err := arch.GetInfo("")
	if err != nil {
		t.Fatal(err)
	}
	wantX32 := uint32(0)
	if info.ID == arch.X86_64.ID {
		wantX32 = uint32(arch.X32.SeccompMask)
	}
	if a.auditArch != uint32(info.ID) || a.x32Mask != wantX32 || a.name != info.Name {
		t.Errorf("arch %s %#x x32 %#x, go-seccomp-bpf says %s %#x x32 %#x", a.name, a.auditArch, a.x32Mask, info.Name, uint32(info.ID), wantX32)
	}
	for _, name := range append(slices.Clone(strictDeniedSyscalls), "clone3", "socket", "clone") {
		nr, ok := a.numbers[name]
		want, wantOK := info.SyscallNames[name]
		if ok != wantOK || nr != want {
			t.Errorf("%s: %d (listed %v), go-seccomp-bpf: %d (listed %v)", name, nr, ok, want, wantOK)
		}
	}
	if len(a.numbers) < len(strictDeniedSyscalls) {
		t.Errorf("%d numbers for %d denied syscalls", len(a.numbers), len(strictDeniedSyscalls))
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
