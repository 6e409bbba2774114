//go:build linux

package hostsandbox

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"

	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// strictDeniedSyscalls are refused with EPERM under SyscallStrict: tracing
// other processes, io_uring (which bypasses syscall filtering), kernel
// modules and kexec, mounts and namespace changes, and a few other
// kernel-facing calls a build or test never needs. Names missing on the
// running architecture are skipped.
var strictDeniedSyscalls = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
	"mount", "umount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree",
	"fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
	"unshare", "setns",
	"bpf", "perf_event_open", "userfaultfd", "add_key", "request_key", "keyctl",
	"swapon", "swapoff", "reboot", "acct", "quotactl",
	"lookup_dcookie", "open_by_handle_at", "name_to_handle_at",
}

// Socket families and types denied by the strict filter.
const (
	afNetlink    = 16
	afPacket     = 17
	sockRaw      = 3
	sockPacket   = 10
	sockTypeMask = 0xf // the low bits of socket(2)'s type; the rest are flags
)

// seccompData offsets (struct seccomp_data: int nr; u32 arch; u64 ip; u64 args[6]).
const (
	offNr   = 0
	offArch = 4
	offArgs = 16
)

// strictSeccompProgram assembles the SyscallStrict filter for this
// architecture as the raw sock_filter array bwrap --seccomp reads. It is
// written by hand on go-seccomp-bpf's syscall tables rather than with its
// policy assembler because socket(2)'s arguments must be compared on their
// low 32 bits only (the kernel truncates them to int, so a 64-bit compare
// could be bypassed by setting high bits).
func strictSeccompProgram() ([]byte, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	if len(info.SyscallNames) == 0 {
		return nil, fmt.Errorf("seccomp: no syscall table for architecture %s", info.Name)
	}
	errnoEPERM := uint32(unix.SECCOMP_RET_ERRNO) | uint32(unix.EPERM)
	retDeny := bpf.RetConstant{Val: errnoEPERM}
	retAllow := bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW}
	// A syscall from a foreign ABI (i386 via int 0x80 on x86_64) would
	// dodge every number below, so any other architecture is refused.
	retForeign := bpf.RetConstant{Val: uint32(unix.SECCOMP_RET_ERRNO) | uint32(unix.ENOSYS)}

	var denied []uint32
	for _, name := range strictDeniedSyscalls {
		if nr, ok := info.SyscallNames[name]; ok {
			denied = append(denied, uint32(nr))
		}
	}
	socketNr, hasSocket := info.SyscallNames["socket"]

	// Layout: [arch check][x32 check][load nr][deny list][socket branch][allow]
	//         [deny][socket arg checks][allow]
	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(info.ID), SkipTrue: 1},
		retForeign,
		bpf.LoadAbsolute{Off: offNr, Size: 4},
	}
	if info.ID == arch.X86_64.ID {
		// x32 syscalls share the arch value but set bit 30.
		prog = append(prog,
			bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: uint32(arch.X32.SeccompMask), SkipTrue: 0, SkipFalse: 1},
			retForeign,
		)
	}
	// Each denied number jumps to the shared deny return placed right
	// after the list: distances shrink as we go.
	n := len(denied)
	extra := 0
	if hasSocket {
		extra = 1
	}
	for i, nr := range denied {
		// instructions after this one before the deny: remaining denies,
		// the socket jump, the allow.
		skip := (n - 1 - i) + extra + 1
		if skip > 255 {
			return nil, fmt.Errorf("seccomp: filter too long")
		}
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: nr, SkipTrue: uint8(skip)})
	}
	if hasSocket {
		// jump over allow and deny to the socket checks
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(socketNr), SkipTrue: 2})
	}
	prog = append(prog, retAllow, retDeny)
	if hasSocket {
		argLo := func(i uint32) uint32 {
			if nativeBigEndian() {
				return offArgs + 8*i + 4
			}
			return offArgs + 8*i
		}
		prog = append(prog,
			bpf.LoadAbsolute{Off: argLo(0), Size: 4},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: afNetlink, SkipTrue: 6},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: afPacket, SkipTrue: 5},
			bpf.LoadAbsolute{Off: argLo(1), Size: 4},
			bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: sockTypeMask},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: sockRaw, SkipTrue: 2},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: sockPacket, SkipTrue: 1},
			retAllow,
			retDeny,
		)
	}
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	var buf bytes.Buffer
	for _, ins := range raw {
		// struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; } in host order
		_ = binary.Write(&buf, binary.NativeEndian, ins)
	}
	return buf.Bytes(), nil
}

func nativeBigEndian() bool {
	var x uint16 = 1
	b := make([]byte, 2)
	binary.NativeEndian.PutUint16(b, x)
	return b[0] == 0
}

// seccompFile returns an in-memory file holding the strict filter, to be
// passed to bwrap as an inherited descriptor.
func seccompFile() (*os.File, error) {
	prog, err := strictSeccompProgram()
	if err != nil {
		return nil, err
	}
	fd, err := unix.MemfdCreate("bashbox-seccomp", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("seccomp: memfd: %w", err)
	}
	f := os.NewFile(uintptr(fd), "bashbox-seccomp")
	if _, err := f.Write(prog); err != nil {
		f.Close()
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	return f, nil
}

// seccompSupported reports whether the kernel has seccomp filtering.
func seccompSupported() bool {
	data, err := os.ReadFile("/proc/self/status")
	return err == nil && bytes.Contains(data, []byte("\nSeccomp:"))
}
