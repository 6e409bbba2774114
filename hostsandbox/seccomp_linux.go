//go:build linux

package hostsandbox

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"strings"

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

// cloneNamespaceFlags are clone(2)'s flags that create namespaces
// (CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET): the
// strict filter refuses clone with any of them, as it refuses unshare.
const cloneNamespaceFlags = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000

// seccompData offsets (struct seccomp_data: int nr; u32 arch; u64 ip; u64 args[6]).
const (
	offNr   = 0
	offArch = 4
	offArgs = 16
)

// bpfProgram assembles BPF with symbolic jump targets: conditional jumps
// name the label to reach when true (false falls through), so the layout
// can change without recounting offsets by hand.
type bpfProgram struct {
	ins    []bpf.Instruction
	jumps  map[int]string // instruction index -> label of its true branch
	labels map[string]int
}

func (p *bpfProgram) add(ins ...bpf.Instruction) { p.ins = append(p.ins, ins...) }

func (p *bpfProgram) jumpIfEqual(val uint32, label string) {
	if p.jumps == nil {
		p.jumps = map[int]string{}
	}
	p.jumps[len(p.ins)] = label
	p.ins = append(p.ins, bpf.JumpIf{Cond: bpf.JumpEqual, Val: val})
}

func (p *bpfProgram) label(name string) {
	if p.labels == nil {
		p.labels = map[string]int{}
	}
	p.labels[name] = len(p.ins)
}

func (p *bpfProgram) assemble() ([]bpf.RawInstruction, error) {
	for at, name := range p.jumps {
		target, ok := p.labels[name]
		if !ok || target <= at || target-at-1 > 255 {
			return nil, fmt.Errorf("seccomp: bad jump to %s", name)
		}
		j := p.ins[at].(bpf.JumpIf)
		j.SkipTrue = uint8(target - at - 1)
		p.ins[at] = j
	}
	return bpf.Assemble(p.ins)
}

// seccompArch is what the strict filter needs of the architecture: its
// name, audit arch value, the x32 bit where there is one, and the numbers
// of the syscalls the filter names (filterArch gives it).
type seccompArch struct {
	name      string
	auditArch uint32
	x32Mask   uint32
	numbers   map[string]int
}

// strictSeccompProgram assembles the SyscallStrict filter for this
// architecture as the raw sock_filter array bwrap --seccomp reads. It is
// written by hand rather than with go-seccomp-bpf's policy assembler
// because socket(2)'s and clone(2)'s arguments must be compared on their
// low 32 bits only (the kernel truncates them to int, so
// a 64-bit compare could be bypassed by setting high bits).
func strictSeccompProgram() ([]byte, error) {
	info, err := filterArch()
	if err != nil {
		return nil, err
	}
	if len(info.numbers) == 0 {
		return nil, fmt.Errorf("seccomp: no syscall table for architecture %s", info.name)
	}
	errnoEPERM := uint32(unix.SECCOMP_RET_ERRNO) | uint32(unix.EPERM)
	retDeny := bpf.RetConstant{Val: errnoEPERM}
	retAllow := bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW}
	// A syscall from a foreign ABI (i386 via int 0x80 on x86_64) would
	// dodge every number below, so any other architecture is refused.
	// clone3 gets the same answer: its flags live in memory a filter
	// cannot read, and ENOSYS makes the C library fall back to clone,
	// whose flags are checked.
	retENOSYS := bpf.RetConstant{Val: uint32(unix.SECCOMP_RET_ERRNO) | uint32(unix.ENOSYS)}
	argLo := func(i uint32) uint32 {
		if nativeBigEndian() {
			return offArgs + 8*i + 4
		}
		return offArgs + 8*i
	}

	var p bpfProgram
	p.add(bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: info.auditArch, SkipTrue: 1},
		retENOSYS,
		bpf.LoadAbsolute{Off: offNr, Size: 4})
	if info.x32Mask != 0 {
		// x32 syscalls share the arch value but set bit 30.
		p.add(bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: info.x32Mask, SkipTrue: 0, SkipFalse: 1},
			retENOSYS)
	}
	for _, name := range strictDeniedSyscalls {
		if nr, ok := info.numbers[name]; ok {
			p.jumpIfEqual(uint32(nr), "deny")
		}
	}
	if nr, ok := info.numbers["clone3"]; ok {
		p.jumpIfEqual(uint32(nr), "enosys")
	}
	socketNr, hasSocket := info.numbers["socket"]
	if hasSocket {
		p.jumpIfEqual(uint32(socketNr), "socket")
	}
	cloneNr, hasClone := info.numbers["clone"]
	if hasClone {
		p.jumpIfEqual(uint32(cloneNr), "clone")
	}
	p.add(retAllow)
	p.label("deny")
	p.add(retDeny)
	p.label("enosys")
	p.add(retENOSYS)
	if hasSocket {
		p.label("socket")
		p.add(bpf.LoadAbsolute{Off: argLo(0), Size: 4})
		p.jumpIfEqual(afNetlink, "deny2")
		p.jumpIfEqual(afPacket, "deny2")
		p.add(bpf.LoadAbsolute{Off: argLo(1), Size: 4},
			bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: sockTypeMask})
		p.jumpIfEqual(sockRaw, "deny2")
		p.jumpIfEqual(sockPacket, "deny2")
		p.add(retAllow)
		p.label("deny2")
		p.add(retDeny)
	}
	if hasClone {
		// clone's flags are its first argument, except on s390, where
		// the first two are swapped.
		flagsArg := uint32(0)
		if strings.HasPrefix(info.name, "s390") {
			flagsArg = 1
		}
		p.label("clone")
		p.add(bpf.LoadAbsolute{Off: argLo(flagsArg), Size: 4},
			bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: cloneNamespaceFlags, SkipTrue: 1},
			retAllow,
			retDeny)
	}
	raw, err := p.assemble()
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
	f, err := memFile("bashbox-seccomp", prog)
	if err != nil {
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	return f, nil
}

// memFile returns an in-memory file holding data, positioned at its start,
// to hand to a child as an inherited descriptor: nothing touches a disk.
func memFile(name string, data []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("memfd: %w", err)
	}
	f := os.NewFile(uintptr(fd), name)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// seccompSupported reports whether the kernel has seccomp filtering.
func seccompSupported() bool {
	data, err := os.ReadFile("/proc/self/status")
	return err == nil && bytes.Contains(data, []byte("\nSeccomp:"))
}
