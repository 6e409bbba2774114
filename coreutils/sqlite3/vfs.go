package sqlite3

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"sync"
	"sync/atomic"

	sbvfs "github.com/bashbox/bashbox/vfs"
	sqlite "github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/vfs"

	"github.com/bashbox/bashbox/builtins"
)

// The database files of a call open through the sandbox filesystem: a VFS
// registered under a name of its own for the call's lifetime. Every open
// names it in the URI, and an authorizer refuses ATTACH of URI file
// names, so no statement can pick the library's "os" VFS, which would
// reach the host (see guard).
var vfsSeq atomic.Uint64

type sandboxVFS struct {
	c    *builtins.Call
	name string
}

func registerVFS(c *builtins.Call) *sandboxVFS {
	v := &sandboxVFS{c: c, name: fmt.Sprintf("bashbox-%d", vfsSeq.Add(1))}
	vfs.Register(v.name, v)
	return v
}

func (v *sandboxVFS) unregister() { vfs.Unregister(v.name) }

// uri is the file name to open a database file of the sandbox with.
func (v *sandboxVFS) uri(name string, readonly bool) string {
	q := url.Values{"vfs": {v.name}}
	if readonly {
		q.Set("mode", "ro")
	}
	u := url.URL{Scheme: "file", Path: v.c.Abs(name), RawQuery: q.Encode()}
	return u.String()
}

func (v *sandboxVFS) Open(name string, flags vfs.OpenFlag) (vfs.File, vfs.OpenFlag, error) {
	if name == "" {
		// A temporary file SQLite names none for (sorts, temp tables).
		return &memFile{c: v.c}, flags, nil
	}
	mode := os.O_RDONLY
	if flags&vfs.OPEN_READWRITE != 0 {
		mode = os.O_RDWR
	}
	if flags&vfs.OPEN_CREATE != 0 {
		mode |= os.O_CREATE
	}
	if flags&vfs.OPEN_EXCLUSIVE != 0 {
		mode |= os.O_EXCL
	}
	if fi, err := v.c.FS.Stat(name); err == nil && fi.IsDir() {
		return nil, flags, sqlite.CANTOPEN_ISDIR
	}
	f, err := v.c.FS.OpenFile(name, mode, 0o644&^v.c.Umask)
	if err != nil && mode&os.O_RDWR != 0 && errors.Is(err, fs.ErrPermission) && flags&vfs.OPEN_MAIN_DB != 0 {
		// As SQLite's unix VFS: a database that cannot be written opens
		// read-only.
		f, err = v.c.FS.OpenFile(name, os.O_RDONLY, 0)
		flags = flags&^(vfs.OPEN_READWRITE|vfs.OPEN_CREATE) | vfs.OPEN_READONLY
	}
	if err != nil {
		return nil, flags, sqlite.CANTOPEN
	}
	file := &sandboxFile{f: f}
	if flags&vfs.OPEN_DELETEONCLOSE != 0 {
		file.deleteOnClose = func() { v.c.FS.Remove(name) }
	}
	return file, flags, nil
}

func (v *sandboxVFS) Delete(name string, _ bool) error {
	err := v.c.FS.Remove(name)
	if errors.Is(err, fs.ErrNotExist) {
		return sqlite.IOERR_DELETE_NOENT
	}
	if err != nil {
		return sqlite.IOERR_DELETE
	}
	return nil
}

func (v *sandboxVFS) Access(name string, flags vfs.AccessFlag) (bool, error) {
	fi, err := v.c.FS.Stat(name)
	if err != nil {
		return false, nil
	}
	if flags == vfs.ACCESS_READWRITE {
		return fi.Mode().Perm()&0o200 != 0, nil
	}
	return true, nil
}

func (v *sandboxVFS) FullPathname(name string) (string, error) {
	return path.Clean(v.c.Abs(name)), nil
}

// sandboxFile is a database, journal or temporary file of the sandbox.
// Locks are kept per open file: the connection is the call's own, and
// the overlay is the call's own.
type sandboxFile struct {
	f             sbvfs.File
	lock          vfs.LockLevel
	deleteOnClose func()
}

func (f *sandboxFile) Close() error {
	err := f.f.Close()
	if f.deleteOnClose != nil {
		f.deleteOnClose()
	}
	return err
}

func (f *sandboxFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.f.ReadAt(p, off)
	if n < len(p) && err == nil {
		err = io.EOF
	}
	return n, err
}

func (f *sandboxFile) WriteAt(p []byte, off int64) (int, error) { return f.f.WriteAt(p, off) }
func (f *sandboxFile) Truncate(size int64) error                { return f.f.Truncate(size) }
func (f *sandboxFile) Sync(vfs.SyncFlag) error                  { return nil }

func (f *sandboxFile) Size() (int64, error) {
	fi, err := f.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

func (f *sandboxFile) Lock(l vfs.LockLevel) error {
	f.lock = max(f.lock, l)
	return nil
}

func (f *sandboxFile) Unlock(l vfs.LockLevel) error {
	f.lock = min(f.lock, l)
	return nil
}

func (f *sandboxFile) CheckReservedLock() (bool, error)                { return f.lock >= vfs.LOCK_RESERVED, nil }
func (f *sandboxFile) SectorSize() int                                 { return 0 }
func (f *sandboxFile) DeviceCharacteristics() vfs.DeviceCharacteristic { return 0 }

// memFile is a temporary file SQLite gives no name: it lives in memory
// and goes with the connection.
type memFile struct {
	mu   sync.Mutex
	c    *builtins.Call
	data []byte
}

// Close gives the memory back to the call's budget.
func (m *memFile) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.c.Shrink(int64(len(m.data)))
	m.data = nil
	return nil
}

// resize grows or shrinks the data, charging growth to the memory budget.
func (m *memFile) resize(size int64) error {
	old := int64(len(m.data))
	if size > old {
		if err := m.c.Grow(size - old); err != nil {
			return sqlite.IOERR_NOMEM
		}
		m.data = append(m.data, make([]byte, size-old)...)
		return nil
	}
	m.c.Shrink(old - size)
	m.data = m.data[:size]
	return nil
}

func (m *memFile) ReadAt(p []byte, off int64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if off >= int64(len(m.data)) {
		return 0, io.EOF
	}
	n := copy(p, m.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (m *memFile) WriteAt(p []byte, off int64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if end := off + int64(len(p)); end > int64(len(m.data)) {
		if err := m.resize(end); err != nil {
			return 0, err
		}
	}
	return copy(m.data[off:], p), nil
}

func (m *memFile) Truncate(size int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.resize(size)
}

func (m *memFile) Sync(vfs.SyncFlag) error { return nil }

func (m *memFile) Size() (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return int64(len(m.data)), nil
}

func (m *memFile) Lock(vfs.LockLevel) error                        { return nil }
func (m *memFile) Unlock(vfs.LockLevel) error                      { return nil }
func (m *memFile) CheckReservedLock() (bool, error)                { return false, nil }
func (m *memFile) SectorSize() int                                 { return 0 }
func (m *memFile) DeviceCharacteristics() vfs.DeviceCharacteristic { return 0 }
