package fileops

import (
	"errors"
	"io/fs"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/overlayfs"
)

var errFifoUnsupported = errors.New("operation not supported")

// copyFifo is a recursive copy (cp -R, -a, mv across volumes) of a named
// pipe: a new FIFO, never its data, as GNU cp does; a plain cp opens the
// FIFO and copies what it reads, as a regular file.
func (cp *Copier) copyFifo(src, dst string, sfi fs.FileInfo, dstExists bool) bool {
	c, q := cp.C, cp.Q
	if dstExists {
		if err := c.FS.Remove(c.Abs(dst)); err != nil && !builtins.IsNotExist(err) {
			cp.errorf("cannot remove %s: %s", q.AF(dst), builtins.ErrText(err))
			return false
		}
	}
	perm := modes.Perm(sfi.Mode())
	if cp.Mode != nil {
		perm = modes.Perm(*cp.Mode)
	}
	exact := cp.PreserveMode || cp.MoveMode || cp.Mode != nil
	if !exact {
		perm &^= uint32(c.Umask)
	}
	err := errFifoUnsupported
	if mk, ok := c.FS.(overlayfs.Mkfifoer); ok {
		err = mk.Mkfifo(c.Abs(dst), modes.FromPerm(perm&0o777))
	}
	if err != nil {
		cp.errorf("cannot create fifo %s: %s", q.AF(dst), builtins.ErrText(err))
		return false
	}
	if exact {
		cp.chmod(dst, perm)
	}
	if cp.PreserveTimes || cp.MoveMode {
		cp.chtimes(dst, sfi)
	}
	cp.reportCopied(src, dst)
	return true
}
