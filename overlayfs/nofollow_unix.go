//go:build unix

package overlayfs

import "syscall"

const oNoFollow = syscall.O_NOFOLLOW
