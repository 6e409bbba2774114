package overlayfs

import (
	"io/fs"
	"path"
	"syscall"

	"golang.org/x/sys/unix"
)

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
