package builtins

import (
	"io"
	"io/fs"
	"syscall"
	"time"

	"github.com/bashbox/bashbox/vfs"
)

// StreamFile returns a file that is a stream, as a pipe is: reads come
// from r, writes go to w (either may be nil: the operation then fails
// with EBADF), and it cannot seek. It serves /dev/stdin and friends and
// the shell's /dev/fd files.
func StreamFile(name string, r io.Reader, w io.Writer) vfs.File {
	return &streamFile{name: name, r: r, w: w}
}

type streamFile struct {
	name string
	r    io.Reader
	w    io.Writer
}

type streamInfo struct{ name string }

func (s streamInfo) Name() string       { return s.name }
func (s streamInfo) Size() int64        { return 0 }
func (s streamInfo) Mode() fs.FileMode  { return fs.ModeNamedPipe | 0o600 }
func (s streamInfo) ModTime() time.Time { return time.Time{} }
func (s streamInfo) IsDir() bool        { return false }
func (s streamInfo) Sys() any           { return nil }

func (f *streamFile) Close() error               { return nil }
func (f *streamFile) Name() string               { return f.name }
func (f *streamFile) Stat() (fs.FileInfo, error) { return streamInfo{f.name}, nil }
func (f *streamFile) Sync() error                { return nil }
func (f *streamFile) Truncate(int64) error {
	return &fs.PathError{Op: "truncate", Path: f.name, Err: syscall.EINVAL}
}
func (f *streamFile) Seek(int64, int) (int64, error) {
	return 0, &fs.PathError{Op: "seek", Path: f.name, Err: syscall.ESPIPE}
}
func (f *streamFile) Readdir(int) ([]fs.FileInfo, error) { return nil, syscall.ENOTDIR }
func (f *streamFile) Readdirnames(int) ([]string, error) { return nil, syscall.ENOTDIR }
func (f *streamFile) Read(p []byte) (int, error) {
	if f.r == nil {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: syscall.EBADF}
	}
	return f.r.Read(p)
}
func (f *streamFile) ReadAt(p []byte, _ int64) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: f.name, Err: syscall.ESPIPE}
}
func (f *streamFile) Write(p []byte) (int, error) {
	if f.w == nil {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: syscall.EBADF}
	}
	return f.w.Write(p)
}
func (f *streamFile) WriteAt(p []byte, _ int64) (int, error) { return f.Write(p) }
func (f *streamFile) WriteString(s string) (int, error)      { return f.Write([]byte(s)) }
