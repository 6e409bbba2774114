//go:build unix

package overlayfs

import (
	"io/fs"
	"path"
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

// mkfifo makes the FIFO with mkfifoat in its parent directory, opened
// through os.Root (so beneath the layer); mkfifoat never follows a final
// symlink.
func (h *HostFs) mkfifo(name string, perm fs.FileMode) error {
	name = Clean(name)
	if name == "/" {
		return syscall.EEXIST
	}
	dir, err := h.root.Open(rel(path.Dir(name)))
	if err != nil {
		return err
	}
	defer dir.Close()
	raw, err := dir.SyscallConn()
	if err != nil {
		return err
	}
	var mkErr error
	if err := raw.Control(func(fd uintptr) {
		mkErr = unix.Mkfifoat(int(fd), path.Base(name), uint32(perm.Perm()))
	}); err != nil {
		return err
	}
	if mkErr == nil && perm.Perm()&processUmask != 0 {
		mkErr = h.root.Chmod(rel(name), perm.Perm()) // beneath the layer too
	}
	return mkErr
}
