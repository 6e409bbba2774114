package interp

import (
	"bytes"
	"io/fs"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/volumes"
)

// commandFS is the filesystem commands get: the namespace, plus the
// shell's /dev/fd/N files (process substitutions and descriptors 3 and
// up), so that `diff <(a) <(b)` and `cat /dev/fd/3` work as in bash.
type commandFS struct {
	*volumes.Namespace
	sh *Shell
}

func (c commandFS) fdFile(name string) (afero.File, bool) {
	n, ok := strings.CutPrefix(name, "/dev/fd/")
	if !ok {
		return nil, false
	}
	if data, ok := c.sh.procFile(name); ok {
		return builtins.StreamFile(name, bytes.NewReader(data), nil), true
	}
	if fd, err := strconv.Atoi(n); err == nil {
		if f, ok := c.sh.fds.get(fd); ok {
			return builtins.StreamFile(name, f, f), true
		}
	}
	return nil, false
}

func (c commandFS) Open(name string) (afero.File, error) {
	if f, ok := c.fdFile(name); ok {
		return f, nil
	}
	return c.Namespace.Open(name)
}

func (c commandFS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	if f, ok := c.fdFile(name); ok {
		return f, nil
	}
	return c.Namespace.OpenFile(name, flag, perm)
}

func (c commandFS) Stat(name string) (fs.FileInfo, error) {
	if f, ok := c.fdFile(name); ok {
		return f.Stat()
	}
	return c.Namespace.Stat(name)
}
