//go:build !unix

package overlayfs

import (
	"io/fs"
	"syscall"
)

func fifoKey(fs.FileInfo) ([2]uint64, bool) { return [2]uint64{}, false }

func (h *HostFs) mkfifo(string, fs.FileMode) error { return syscall.EOPNOTSUPP }
