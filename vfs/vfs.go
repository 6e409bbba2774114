// Package vfs holds the filesystem interfaces the sandbox is built on: FS,
// the file handle File and the optional symlink interfaces, plus the two
// helpers (ReadFile, Walk) the commands and tests need.
//
// The method sets are those of github.com/spf13/afero's Fs, File, Lstater,
// Linker, LinkReader and Symlinker, so every afero file is a File as it is
// and an afero filesystem becomes an FS through the one-line wrapper in
// vfs/aferovfs. The types are our own because afero's root package links
// net/http (and with it crypto/tls, x509 and http2) for its HTTP adapter:
// importing it doubled the start-up time of the lean CLI, which only
// needs the interfaces.
package vfs

import (
	"io"
	"io/fs"
	"time"
)

// File is an open file or directory of an FS.
type File interface {
	io.Closer
	io.Reader
	io.ReaderAt
	io.Seeker
	io.Writer
	io.WriterAt

	Name() string
	Readdir(count int) ([]fs.FileInfo, error)
	Readdirnames(n int) ([]string, error)
	Stat() (fs.FileInfo, error)
	Sync() error
	Truncate(size int64) error
	WriteString(s string) (ret int, err error)
}

// FS is a filesystem: the os package's file operations as methods. Paths
// are the filesystem's own (slash-separated and rooted at "/" for every
// filesystem of this module).
type FS interface {
	Create(name string) (File, error)
	Mkdir(name string, perm fs.FileMode) error
	MkdirAll(path string, perm fs.FileMode) error
	Open(name string) (File, error)
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
	Remove(name string) error
	// RemoveAll removes path and everything below it; a missing path is
	// not an error.
	RemoveAll(path string) error
	Rename(oldname, newname string) error
	Stat(name string) (fs.FileInfo, error)
	// Name names the filesystem's kind (for messages and debugging).
	Name() string
	Chmod(name string, mode fs.FileMode) error
	Chown(name string, uid, gid int) error
	Chtimes(name string, atime time.Time, mtime time.Time) error
}

// Lstater is implemented by filesystems that can stat a symlink itself.
// The bool reports whether lstat was possible (false: the info is a
// stat's, following links).
type Lstater interface {
	LstatIfPossible(name string) (fs.FileInfo, bool, error)
}

// Linker is implemented by filesystems that can make symlinks.
type Linker interface {
	SymlinkIfPossible(oldname, newname string) error
}

// LinkReader is implemented by filesystems that can read a symlink.
type LinkReader interface {
	ReadlinkIfPossible(name string) (string, error)
}

// Symlinker is a filesystem with full symlink support.
type Symlinker interface {
	Lstater
	Linker
	LinkReader
}
