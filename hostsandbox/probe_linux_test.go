//go:build linux

package hostsandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// runProbe tries the operations the sandbox layers should block and
// prints one "name=result" line each, where result is "ok" or the errno
// name. It runs as the test binary started inside a sandbox.
func runProbe(what string) int {
	switch what {
	case "syscalls":
		report := func(name string, err error) {
			fmt.Printf("%s=%s\n", name, errName(err))
		}
		// PEEKUSER on a process we do not trace fails with ESRCH unless
		// the filter refuses ptrace first (EPERM).
		_, _, e := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_PEEKUSR, uintptr(os.Getpid()), 0, 0, 0, 0)
		report("ptrace", errnoOrNil(e))
		var params [120]byte
		fd, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params[0])), 0)
		if e == 0 {
			unix.Close(int(fd))
		}
		report("io_uring", errnoOrNil(e))
		report("netlink", trySocket(unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE))
		// Same family with garbage in the upper 32 bits: the kernel
		// ignores them, so the filter must too.
		report("netlink_hibits", trySocket(unix.AF_NETLINK|1<<32, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE))
		report("packet", trySocket(unix.AF_PACKET, unix.SOCK_DGRAM, 0))
		report("tcp", trySocket(unix.AF_INET, unix.SOCK_STREAM, 0))
		// A child in a new user namespace (clone with CLONE_NEWUSER), a
		// plain child (must still work), and clone3 with a bad size
		// (EINVAL when it reaches the kernel).
		report("clone_newuser", tryExec(unix.CLONE_NEWUSER))
		report("clone_newnet", tryExec(unix.CLONE_NEWNET|unix.CLONE_NEWUSER))
		report("clone_plain", tryExec(0))
		_, _, e = unix.Syscall(unix.SYS_CLONE3, 0, 0, 0)
		report("clone3", errnoOrNil(e))
		report("unshare_user", unix.Unshare(unix.CLONE_NEWUSER))
		return 0
	case "tcpbind":
		// A plain TCP socket (not MPTCP, which Landlock does not cover).
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		if err != nil {
			fmt.Printf("tcpbind=%s\n", errName(err))
			return 0
		}
		defer unix.Close(fd)
		err = unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}})
		fmt.Printf("tcpbind=%s\n", errName(err))
		return 0
	case "caps":
		fmt.Printf("caps=%s\n", effectiveCaps())
		return 0
	case "alloc":
		// Touch 256 MiB; an address-space limit below that must stop it.
		b := make([]byte, 256<<20)
		for i := range b {
			if i%4096 == 0 {
				b[i] = 1
			}
		}
		fmt.Println("alloc=ok")
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown probe", what)
	return 2
}

func tryExec(cloneflags uintptr) error {
	cmd := exec.Command("/bin/true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: cloneflags}
	if cloneflags&unix.CLONE_NEWUSER != 0 {
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		cmd.SysProcAttr.GidMappingsEnableSetgroups = false
	}
	return cmd.Run()
}

func trySocket(domain, typ, proto uint64) error {
	fd, _, e := unix.Syscall(unix.SYS_SOCKET, uintptr(domain), uintptr(typ), uintptr(proto))
	if e == 0 {
		unix.Close(int(fd))
		return nil
	}
	return e
}

func errnoOrNil(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

func errName(err error) string {
	if err == nil {
		return "ok"
	}
	var e unix.Errno
	if errors.As(err, &e) {
		return unix.ErrnoName(e)
	}
	return err.Error()
}

// effectiveCaps is the probe "caps": the command's effective capability
// set as /proc/self/status shows it.
func effectiveCaps() string {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
