package interp

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/afero"

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
		return &memReader{name: name, r: bytes.NewReader(data), size: int64(len(data))}, true
	}
	if fd, err := strconv.Atoi(n); err == nil {
		if f, ok := c.sh.fds.get(fd); ok {
			return &memReader{name: name, rw: f}, true
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

// memReader is a /dev/fd file: a pipe-like stream.
type memReader struct {
	name string
	r    *bytes.Reader
	rw   io.ReadWriteCloser
	size int64
}

type pipeInfo struct{ name string }

func (p pipeInfo) Name() string       { return p.name }
func (p pipeInfo) Size() int64        { return 0 }
func (p pipeInfo) Mode() fs.FileMode  { return fs.ModeNamedPipe | 0o600 }
func (p pipeInfo) ModTime() time.Time { return time.Time{} }
func (p pipeInfo) IsDir() bool        { return false }
func (p pipeInfo) Sys() any           { return nil }

func (m *memReader) Read(p []byte) (int, error) {
	if m.r != nil {
		return m.r.Read(p)
	}
	return m.rw.Read(p)
}
func (m *memReader) Write(p []byte) (int, error) {
	if m.rw != nil {
		return m.rw.Write(p)
	}
	return 0, &fs.PathError{Op: "write", Path: m.name, Err: syscall.EBADF}
}
func (m *memReader) ReadAt(p []byte, off int64) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: m.name, Err: syscall.ESPIPE}
}
func (m *memReader) WriteAt(p []byte, off int64) (int, error) { return m.Write(p) }
func (m *memReader) Seek(int64, int) (int64, error) {
	return 0, &fs.PathError{Op: "seek", Path: m.name, Err: syscall.ESPIPE}
}
func (m *memReader) Close() error                       { return nil }
func (m *memReader) Name() string                       { return m.name }
func (m *memReader) Readdir(int) ([]os.FileInfo, error) { return nil, syscall.ENOTDIR }
func (m *memReader) Readdirnames(int) ([]string, error) { return nil, syscall.ENOTDIR }
func (m *memReader) Stat() (os.FileInfo, error)         { return pipeInfo{m.name}, nil }
func (m *memReader) Sync() error                        { return nil }
func (m *memReader) Truncate(int64) error               { return syscall.EINVAL }
func (m *memReader) WriteString(s string) (int, error)  { return m.Write([]byte(s)) }
