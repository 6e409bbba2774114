//go:build linux

package hostsandbox

import "golang.org/x/sys/unix"

const (
	archName  = "aarch64"
	auditArch = unix.AUDIT_ARCH_AARCH64
	x32Mask   = 0
)
