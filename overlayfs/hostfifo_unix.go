//go:build unix

package overlayfs

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// fifoKey identifies the host FIFO fi describes.
func fifoKey(fi fs.FileInfo) ([2]uint64, bool) {
	if fi == nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		return [2]uint64{}, false
	}
	switch st := fi.Sys().(type) {
	case *unix.Stat_t:
		return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, true
	case *syscall.Stat_t:
		return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, true
	}
	return [2]uint64{}, false
}
