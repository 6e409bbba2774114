//go:build unix

package overlayfs

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// listTypes lists the open directory d by name and d_type. A directory
// opened through os.Root lstats every entry as it is read; the same
// directory reopened by os.NewFile on a duplicate descriptor takes the
// type from the kernel's dirent and lstats (relative to the descriptor,
// so still inside the root) only entries the filesystem leaves untyped.
func listTypes(d *os.File) ([]fs.DirEntry, error) {
	raw, err := d.SyscallConn()
	if err != nil {
		return nil, err
	}
	dup := -1
	var dupErr error
	if err := raw.Control(func(fd uintptr) {
		dup, dupErr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return nil, err
	}
	if dupErr != nil {
		return nil, dupErr
	}
	plain := os.NewFile(uintptr(dup), d.Name())
	defer plain.Close()
	return plain.ReadDir(-1)
}
