//go:build linux && (amd64 || arm64)

package hostsandbox

import "golang.org/x/sys/unix"

// filterArch is the running architecture as the strict filter needs it,
// from x/sys/unix's constants: go-seccomp-bpf's tables (used on other
// architectures, and by the test that checks these against them) build
// maps of every syscall of five architectures at package initialisation,
// which every `bashbox run` paid. Only the syscalls the filter names are
// listed; a name absent here is absent on this architecture.
func filterArch() (seccompArch, error) {
	return seccompArch{name: archName, auditArch: auditArch, x32Mask: x32Mask, numbers: map[string]int{
		"ptrace":            unix.SYS_PTRACE,
		"process_vm_readv":  unix.SYS_PROCESS_VM_READV,
		"process_vm_writev": unix.SYS_PROCESS_VM_WRITEV,
		"kcmp":              unix.SYS_KCMP,
		"io_uring_setup":    unix.SYS_IO_URING_SETUP,
		"io_uring_enter":    unix.SYS_IO_URING_ENTER,
		"io_uring_register": unix.SYS_IO_URING_REGISTER,
		"init_module":       unix.SYS_INIT_MODULE,
		"finit_module":      unix.SYS_FINIT_MODULE,
		"delete_module":     unix.SYS_DELETE_MODULE,
		"kexec_load":        unix.SYS_KEXEC_LOAD,
		"kexec_file_load":   unix.SYS_KEXEC_FILE_LOAD,
		"mount":             unix.SYS_MOUNT,
		"umount2":           unix.SYS_UMOUNT2,
		"pivot_root":        unix.SYS_PIVOT_ROOT,
		"chroot":            unix.SYS_CHROOT,
		"move_mount":        unix.SYS_MOVE_MOUNT,
		"open_tree":         unix.SYS_OPEN_TREE,
		"fsopen":            unix.SYS_FSOPEN,
		"fsconfig":          unix.SYS_FSCONFIG,
		"fsmount":           unix.SYS_FSMOUNT,
		"fspick":            unix.SYS_FSPICK,
		"mount_setattr":     unix.SYS_MOUNT_SETATTR,
		"unshare":           unix.SYS_UNSHARE,
		"setns":             unix.SYS_SETNS,
		"bpf":               unix.SYS_BPF,
		"perf_event_open":   unix.SYS_PERF_EVENT_OPEN,
		"userfaultfd":       unix.SYS_USERFAULTFD,
		"add_key":           unix.SYS_ADD_KEY,
		"request_key":       unix.SYS_REQUEST_KEY,
		"keyctl":            unix.SYS_KEYCTL,
		"swapon":            unix.SYS_SWAPON,
		"swapoff":           unix.SYS_SWAPOFF,
		"reboot":            unix.SYS_REBOOT,
		"acct":              unix.SYS_ACCT,
		"quotactl":          unix.SYS_QUOTACTL,
		"lookup_dcookie":    unix.SYS_LOOKUP_DCOOKIE,
		"open_by_handle_at": unix.SYS_OPEN_BY_HANDLE_AT,
		"name_to_handle_at": unix.SYS_NAME_TO_HANDLE_AT,
		"clone3":            unix.SYS_CLONE3,
		"socket":            unix.SYS_SOCKET,
		"clone":             unix.SYS_CLONE,
	}}, nil
}
