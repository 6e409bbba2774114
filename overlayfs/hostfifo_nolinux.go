//go:build !linux

package overlayfs

import (
	"io/fs"
	"syscall"
)

// mkfifo: only Linux makes FIFOs on host volumes (mkfifoat beneath the
// volume directory).
func (h *HostFs) mkfifo(string, fs.FileMode) error { return syscall.EOPNOTSUPP }
