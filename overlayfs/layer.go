// Package overlayfs provides the filesystem layers of the sandbox: a
// traversal-safe host layer built on os.Root, an in-memory layer, and a
// copy-on-write overlay of the two. Every layer implements vfs.FS and
// vfs.Symlinker over slash-separated paths rooted at the layer ("/" is the
// layer's root).
//
// Layers never follow a symlink in the last path component (Stat is the one
// exception, and follows only inside the layer): resolving symlinks across
// mounts is the job of the guest namespace in package volumes, which hands
// the layers symlink-free paths.
package overlayfs

import (
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/bashbox/bashbox/vfs"
)

// Layer is a filesystem layer: vfs.FS plus symlink support.
type Layer interface {
	vfs.FS
	vfs.Symlinker
}

// Linker is implemented by layers that make hard links: newname becomes
// another name of oldname's file (a symlink is linked itself).
type Linker interface {
	Link(oldname, newname string) error
}

// LinkSys is the FileInfo.Sys of a memory-layer file with more than one
// name: what stat reports as its inode number and link count.
type LinkSys struct {
	Ino   uint64
	Nlink uint64
}

// ReadDirer is implemented by layers that list a directory without opening
// it as a file. Entries come in the layer's native order.
type ReadDirer interface {
	ReadDir(name string) ([]fs.FileInfo, error)
}

// ReadDir lists a directory of any vfs.FS, in native order when the
// filesystem provides one.
func ReadDir(fsys vfs.FS, name string) ([]fs.FileInfo, error) {
	if rd, ok := fsys.(ReadDirer); ok {
		return rd.ReadDir(name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdir(-1)
}

// TypeLister is implemented by layers that can list a directory without
// stating each entry: the infos name the entries and carry their file type
// in Mode (directory, symlink, ...), but not necessarily permissions, size
// or times. Walks that only descend and match names (find -name -type)
// need no more, and the host layer then makes no lstat per entry.
type TypeLister interface {
	ReadDirTypes(name string) ([]fs.FileInfo, error)
}

// ReadDirTypes lists a directory of any vfs.FS with at least the entries'
// names and types (see TypeLister), in native order.
func ReadDirTypes(fsys vfs.FS, name string) ([]fs.FileInfo, error) {
	if tl, ok := fsys.(TypeLister); ok {
		return tl.ReadDirTypes(name)
	}
	return ReadDir(fsys, name)
}

// typeInfo is a directory entry known only by its name and file type.
type typeInfo struct {
	name string
	typ  fs.FileMode
}

func (t typeInfo) Name() string       { return t.name }
func (t typeInfo) Size() int64        { return 0 }
func (t typeInfo) Mode() fs.FileMode  { return t.typ }
func (t typeInfo) ModTime() time.Time { return time.Time{} }
func (t typeInfo) IsDir() bool        { return t.typ.IsDir() }
func (t typeInfo) Sys() any           { return nil }

// typeInfos keeps of each directory entry its name and file type.
func typeInfos(entries []fs.DirEntry) []fs.FileInfo {
	infos := make([]fs.FileInfo, len(entries))
	for i, e := range entries {
		infos[i] = typeInfo{e.Name(), e.Type()}
	}
	return infos
}

// Clean turns any path into the canonical "/a/b" form used by layers.
// Most paths already have it: they come back as they are, without the
// allocation of a cleaned copy.
func Clean(name string) string {
	if isClean(name) {
		return name
	}
	if strings.HasPrefix(name, "/") {
		return path.Clean(name)
	}
	return path.Clean("/" + name)
}

// isClean reports whether p is "/" or an absolute path of components none
// of which is empty, "." or "..".
func isClean(p string) bool {
	if p == "/" {
		return true
	}
	if len(p) < 2 || p[0] != '/' {
		return false
	}
	start := 1
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		switch p[start:i] {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}

func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// isWrite reports whether open flags ask for write access or creation.
func isWrite(flag int) bool {
	return flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0
}

// fileInfo is a plain fs.FileInfo.
type fileInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
	sys   any
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *fileInfo) ModTime() time.Time { return fi.mtime }
func (fi *fileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any           { return fi.sys }

// RenamedInfo returns fi reporting name as its base name.
func RenamedInfo(fi fs.FileInfo, name string) fs.FileInfo {
	if fi.Name() == name {
		return fi
	}
	return &fileInfo{name: name, size: fi.Size(), mode: fi.Mode(), mtime: fi.ModTime(), sys: fi.Sys()}
}

// DirFile is a vfs.File for a directory whose listing is already known.
type DirFile struct {
	name    string
	info    fs.FileInfo
	entries []fs.FileInfo
	pos     int
}

// NewDirFile returns an open directory handle listing entries.
func NewDirFile(name string, info fs.FileInfo, entries []fs.FileInfo) *DirFile {
	return &DirFile{name: name, info: info, entries: entries}
}

func (d *DirFile) Close() error               { return nil }
func (d *DirFile) Name() string               { return d.name }
func (d *DirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *DirFile) Sync() error                { return nil }
func (d *DirFile) Read([]byte) (int, error)   { return 0, pathErr("read", d.name, syscall.EISDIR) }
func (d *DirFile) ReadAt([]byte, int64) (int, error) {
	return 0, pathErr("read", d.name, syscall.EISDIR)
}
func (d *DirFile) Seek(int64, int) (int64, error) { d.pos = 0; return 0, nil }
func (d *DirFile) Write([]byte) (int, error)      { return 0, pathErr("write", d.name, syscall.EISDIR) }
func (d *DirFile) WriteAt([]byte, int64) (int, error) {
	return 0, pathErr("write", d.name, syscall.EISDIR)
}
func (d *DirFile) WriteString(string) (int, error) {
	return 0, pathErr("write", d.name, syscall.EISDIR)
}
func (d *DirFile) Truncate(int64) error { return pathErr("truncate", d.name, syscall.EISDIR) }
func (d *DirFile) Readdirnames(n int) ([]string, error) {
	infos, err := d.Readdir(n)
	names := make([]string, len(infos))
	for i, fi := range infos {
		names[i] = fi.Name()
	}
	return names, err
}

func (d *DirFile) Readdir(n int) ([]fs.FileInfo, error) {
	rest := d.entries[d.pos:]
	if n <= 0 {
		d.pos = len(d.entries)
		return append([]fs.FileInfo(nil), rest...), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	if n > len(rest) {
		n = len(rest)
	}
	d.pos += n
	return append([]fs.FileInfo(nil), rest[:n]...), nil
}

// MkdirAll creates name and any missing parents on fsys.
func MkdirAll(fsys vfs.FS, name string, perm fs.FileMode) error {
	name = Clean(name)
	fi, err := lstat(fsys, name)
	if err == nil {
		if fi.IsDir() {
			return nil
		}
		return pathErr("mkdir", name, syscall.ENOTDIR)
	}
	if name != "/" {
		if err := MkdirAll(fsys, path.Dir(name), perm); err != nil {
			return err
		}
	}
	if err := fsys.Mkdir(name, perm); err != nil && !os.IsExist(err) {
		return err
	}
	return nil
}

// RemoveAll removes name and everything below it on fsys, without following
// symlinks.
func RemoveAll(fsys vfs.FS, name string) error {
	name = Clean(name)
	fi, err := lstat(fsys, name)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	if fi.IsDir() {
		entries, err := ReadDir(fsys, name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := RemoveAll(fsys, path.Join(name, e.Name())); err != nil {
				return err
			}
		}
	}
	if name == "/" {
		return nil // a root is emptied, not removed
	}
	err = fsys.Remove(name)
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

func lstat(fsys vfs.FS, name string) (fs.FileInfo, error) {
	if l, ok := fsys.(vfs.Lstater); ok {
		fi, _, err := l.LstatIfPossible(name)
		return fi, err
	}
	return fsys.Stat(name)
}

// under reports whether p is dir or lies below it.
func under(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
