//go:build linux

package hostsandbox

import "golang.org/x/sys/unix"

const (
	archName  = "x86_64"
	auditArch = unix.AUDIT_ARCH_X86_64
	x32Mask   = 0x40000000 // __X32_SYSCALL_BIT: x32 calls share the arch value
)
