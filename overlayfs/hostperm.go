package overlayfs

import (
	"errors"
	"io/fs"
	"os"
)

// processUmask is the mask the host applies to the files bashbox creates
// (the usual 022). The script's own umask is applied by the shell and the
// commands before a mode reaches a layer; where it leaves bits the
// process's mask would strip (a script's umask 0 or 002), the mode is set
// again after the file is made, so that the script's umask, not the
// process's, decides. A stricter operator umask than 022 still applies
// to the other bits.
const processUmask = 0o022

// openHost opens name beneath the root, creating it with exactly perm
// when the process's umask would take bits away.
func (h *HostFs) openHost(name string, flag int, perm fs.FileMode) (*os.File, error) {
	flag |= oNoFollow | oNonBlock
	if flag&os.O_CREATE == 0 || perm&processUmask == 0 {
		return h.root.OpenFile(rel(name), flag, safePerm(perm))
	}
	// Only a file this call creates gets the mode: an exclusive create
	// first tells which it is.
	excl := flag&os.O_EXCL != 0
	for range 2 {
		f, err := h.root.OpenFile(rel(name), flag|os.O_EXCL, safePerm(perm))
		if err == nil {
			if err := f.Chmod(safePerm(perm)); err != nil {
				f.Close()
				return nil, err
			}
			return f, nil
		}
		if excl || !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		f, err = h.root.OpenFile(rel(name), flag&^os.O_CREATE, 0)
		if !errors.Is(err, fs.ErrNotExist) {
			return f, err
		}
		// removed in between: create it after all
	}
	return h.root.OpenFile(rel(name), flag, safePerm(perm))
}
