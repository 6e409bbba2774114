package overlayfs

import (
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/bashbox/bashbox/vfs"
)

// Quota bounds what in-memory layers may hold. One Quota is shared by every
// memory layer of a call, so the budget is per call, not per volume.
// A zero limit means no limit.
type Quota struct {
	MaxBytes int64
	MaxFiles int64
	// OnExceeded is called (once per refusal) with "overlay_bytes" or
	// "overlay_files" when a write is refused for lack of room.
	OnExceeded func(budget string)

	bytes atomic.Int64
	files atomic.Int64
}

// Bytes reports the bytes currently held.
func (q *Quota) Bytes() int64 { return q.bytes.Load() }

// Files reports the entries currently held.
func (q *Quota) Files() int64 { return q.files.Load() }

func (q *Quota) reserveBytes(n int64) bool {
	if q == nil || n <= 0 {
		if q != nil {
			q.bytes.Add(n)
		}
		return true
	}
	if v := q.bytes.Add(n); q.MaxBytes > 0 && v > q.MaxBytes {
		q.bytes.Add(-n)
		if q.OnExceeded != nil {
			q.OnExceeded("overlay_bytes")
		}
		return false
	}
	return true
}

func (q *Quota) reserveFile() bool {
	if q == nil {
		return true
	}
	if v := q.files.Add(1); q.MaxFiles > 0 && v > q.MaxFiles {
		q.files.Add(-1)
		if q.OnExceeded != nil {
			q.OnExceeded("overlay_files")
		}
		return false
	}
	return true
}

func (q *Quota) release(bytes int64, files int64) {
	if q != nil {
		q.bytes.Add(-bytes)
		q.files.Add(-files)
	}
}

type memNode struct {
	mode   fs.FileMode
	mtime  time.Time
	data   chunks // regular files
	target string // symlinks
	// children in creation order, which is this layer's native order.
	children map[string]*memNode
	order    []string
	// links counts the names of a file beyond its first (hard links);
	// id identifies it once it has several.
	links int
	id    uint64
	pipe  *pipe // named pipes (fifo.go)
}

func (n *memNode) info(name string) fs.FileInfo {
	size := n.data.size
	if n.mode&fs.ModeSymlink != 0 {
		size = int64(len(n.target))
	} else if n.mode.IsDir() {
		size = 4096
	}
	fi := &fileInfo{name: name, size: size, mode: n.mode, mtime: n.mtime}
	if n.links > 0 {
		fi.sys = &LinkSys{Ino: n.id, Nlink: uint64(n.links + 1)}
	}
	return fi
}

// unlinked drops one name of n and returns the bytes and entries that
// frees: the data goes with the last name.
func (n *memNode) unlinked() (bytes, files int64) {
	if n.links > 0 {
		n.links--
		return 0, 1
	}
	return n.data.size, 1
}

func (n *memNode) addChild(name string, c *memNode) {
	if _, ok := n.children[name]; !ok {
		n.order = append(n.order, name)
	}
	n.children[name] = c
}

func (n *memNode) removeChild(name string) {
	delete(n.children, name)
	for i, o := range n.order {
		if o == name {
			n.order = append(n.order[:i], n.order[i+1:]...)
			break
		}
	}
}

// MemFs is an in-memory layer with symlinks, modes, mtimes and creation
// order listings. It is safe for concurrent use.
type MemFs struct {
	mu    sync.RWMutex
	root  *memNode
	quota *Quota
	now   func() time.Time
	// chunkShift sets the block size of its files' data (tests make it
	// small to cross block boundaries often).
	chunkShift uint8
}

// NewMemFs returns an empty in-memory layer whose contents count against q
// (which may be nil).
func NewMemFs(q *Quota) *MemFs {
	return &MemFs{
		root:       &memNode{mode: fs.ModeDir | 0o755, mtime: time.Now(), children: map[string]*memNode{}},
		quota:      q,
		now:        time.Now,
		chunkShift: defaultChunkShift,
	}
}

func (m *MemFs) Name() string { return "memfs" }

// walk finds the node at name without following symlinks.
func (m *MemFs) walk(name string) (*memNode, error) {
	n := m.root
	name = Clean(name)
	if name == "/" {
		return n, nil
	}
	for _, part := range strings.Split(name[1:], "/") {
		if !n.mode.IsDir() {
			return nil, syscall.ENOTDIR
		}
		c, ok := n.children[part]
		if !ok {
			return nil, syscall.ENOENT
		}
		n = c
	}
	return n, nil
}

func (m *MemFs) parent(name string) (*memNode, string, error) {
	name = Clean(name)
	if name == "/" {
		return nil, "", syscall.EEXIST
	}
	dir, base := path.Split(name)
	p, err := m.walk(dir)
	if err != nil {
		return nil, "", err
	}
	if !p.mode.IsDir() {
		return nil, "", syscall.ENOTDIR
	}
	return p, base, nil
}

func (m *MemFs) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, err := m.walk(name)
	if err != nil {
		return nil, true, pathErr("lstat", name, err)
	}
	return n.info(path.Base(Clean(name))), true, nil
}

// Stat follows symlinks inside this layer.
func (m *MemFs) Stat(name string) (fs.FileInfo, error) {
	resolved, err := ResolveIn(m, name, true)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	fi, _, err := m.LstatIfPossible(resolved)
	if err != nil {
		return nil, pathErr("stat", name, underlying(err))
	}
	return RenamedInfo(fi, path.Base(Clean(name))), nil
}

func (m *MemFs) ReadlinkIfPossible(name string) (string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, err := m.walk(name)
	if err != nil {
		return "", pathErr("readlink", name, err)
	}
	if n.mode&fs.ModeSymlink == 0 {
		return "", pathErr("readlink", name, syscall.EINVAL)
	}
	return n.target, nil
}

func (m *MemFs) SymlinkIfPossible(target, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, base, err := m.parent(name)
	if err != nil {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: err}
	}
	if _, ok := p.children[base]; ok {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: syscall.EEXIST}
	}
	if !m.quota.reserveFile() {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: syscall.ENOSPC}
	}
	now := m.now()
	p.addChild(base, &memNode{mode: fs.ModeSymlink | 0o777, mtime: now, target: target})
	p.mtime = now
	return nil
}

func (m *MemFs) Mkdir(name string, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, base, err := m.parent(name)
	if err != nil {
		return pathErr("mkdir", name, err)
	}
	if _, ok := p.children[base]; ok {
		return pathErr("mkdir", name, syscall.EEXIST)
	}
	if !m.quota.reserveFile() {
		return pathErr("mkdir", name, syscall.ENOSPC)
	}
	now := m.now()
	p.addChild(base, &memNode{mode: fs.ModeDir | perm.Perm(), mtime: now, children: map[string]*memNode{}})
	p.mtime = now
	return nil
}

func (m *MemFs) MkdirAll(name string, perm fs.FileMode) error { return MkdirAll(m, name, perm) }
func (m *MemFs) RemoveAll(name string) error                  { return RemoveAll(m, name) }

func (m *MemFs) Create(name string) (File, error) {
	return m.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (m *MemFs) Open(name string) (File, error) { return m.OpenFile(name, os.O_RDONLY, 0) }

// OpenFile opens name, which must not be a symlink (the namespace resolves
// those before calling a layer).
func (m *MemFs) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	name = Clean(name)
	n, err := m.walk(name)
	switch {
	case err == syscall.ENOENT && flag&os.O_CREATE != 0:
		p, base, perr := m.parent(name)
		if perr != nil {
			return nil, pathErr("open", name, perr)
		}
		if !m.quota.reserveFile() {
			return nil, pathErr("open", name, syscall.ENOSPC)
		}
		now := m.now()
		n = &memNode{mode: perm.Perm(), mtime: now, data: chunks{shift: m.chunkShift}}
		p.addChild(base, n)
		p.mtime = now
	case err != nil:
		return nil, pathErr("open", name, err)
	case flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0:
		return nil, pathErr("open", name, syscall.EEXIST)
	case n.mode&fs.ModeSymlink != 0:
		return nil, pathErr("open", name, syscall.ELOOP)
	}
	if n.pipe != nil {
		return m.openFifo(nil, n, name, flag) // no context: never waits
	}
	if n.mode.IsDir() {
		if isWrite(flag) {
			return nil, pathErr("open", name, syscall.EISDIR)
		}
		entries := make([]fs.FileInfo, 0, len(n.order))
		for _, c := range n.order {
			entries = append(entries, n.children[c].info(c))
		}
		return NewDirFile(name, n.info(path.Base(name)), entries), nil
	}
	if flag&os.O_TRUNC != 0 && isWrite(flag) && n.data.size > 0 {
		m.quota.release(n.data.size, 0)
		n.data = chunks{shift: n.data.shift}
		n.mtime = m.now()
	}
	h := &memFile{fs: m, node: n, name: name, flag: flag}
	if flag&os.O_APPEND != 0 {
		h.off = n.data.size
	}
	return h, nil
}

// ReadDir lists name in creation order.
func (m *MemFs) ReadDir(name string) ([]fs.FileInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, err := m.walk(name)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if !n.mode.IsDir() {
		return nil, pathErr("readdirent", name, syscall.ENOTDIR)
	}
	entries := make([]fs.FileInfo, 0, len(n.order))
	for _, c := range n.order {
		entries = append(entries, n.children[c].info(c))
	}
	return entries, nil
}

// ReadDirTypes is ReadDir: memory entries cost nothing to state.
func (m *MemFs) ReadDirTypes(name string) ([]fs.FileInfo, error) { return m.ReadDir(name) }

func (m *MemFs) Remove(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, base, err := m.parent(name)
	if err != nil {
		return pathErr("remove", name, err)
	}
	n, ok := p.children[base]
	if !ok {
		return pathErr("remove", name, syscall.ENOENT)
	}
	if n.mode.IsDir() && len(n.children) > 0 {
		return pathErr("remove", name, syscall.ENOTEMPTY)
	}
	p.removeChild(base)
	p.mtime = m.now()
	m.quota.release(n.unlinked())
	return nil
}

// nodeIDs numbers the files of memory layers that get a second name.
var nodeIDs atomic.Uint64

// Link gives the file at oldname the further name newname.
func (m *MemFs) Link(oldname, newname string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	lerr := func(err error) error {
		return &os.LinkError{Op: "link", Old: Clean(oldname), New: Clean(newname), Err: err}
	}
	n, err := m.walk(oldname)
	if err != nil {
		return lerr(err)
	}
	if n.mode.IsDir() {
		return lerr(syscall.EPERM)
	}
	p, base, err := m.parent(newname)
	if err != nil {
		return lerr(err)
	}
	if _, ok := p.children[base]; ok {
		return lerr(syscall.EEXIST)
	}
	if !m.quota.reserveFile() {
		return lerr(syscall.ENOSPC)
	}
	if n.id == 0 {
		n.id = 95_000_000 + nodeIDs.Add(1)
	}
	n.links++
	p.addChild(base, n)
	p.mtime = m.now()
	return nil
}

func (m *MemFs) Rename(oldname, newname string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	oldname, newname = Clean(oldname), Clean(newname)
	if oldname == newname {
		return nil
	}
	if under(newname, oldname) {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.EINVAL}
	}
	op, obase, err := m.parent(oldname)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	n, ok := op.children[obase]
	if !ok {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.ENOENT}
	}
	np, nbase, err := m.parent(newname)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	if existing, ok := np.children[nbase]; ok {
		switch {
		case existing.mode.IsDir() && !n.mode.IsDir():
			return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.EISDIR}
		case !existing.mode.IsDir() && n.mode.IsDir():
			return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.ENOTDIR}
		case existing.mode.IsDir() && len(existing.children) > 0:
			return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.ENOTEMPTY}
		}
		if existing == n {
			// Two names of one file: rename does nothing.
			return nil
		}
		m.quota.release(existing.unlinked())
		np.removeChild(nbase)
	}
	op.removeChild(obase)
	np.addChild(nbase, n)
	now := m.now()
	op.mtime, np.mtime = now, now
	return nil
}

func (m *MemFs) Chmod(name string, mode fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.walk(name)
	if err != nil {
		return pathErr("chmod", name, err)
	}
	n.mode = n.mode&fs.ModeType | mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
	return nil
}

func (m *MemFs) Chown(name string, uid, gid int) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if _, err := m.walk(name); err != nil {
		return pathErr("chown", name, err)
	}
	return nil
}

func (m *MemFs) Chtimes(name string, atime, mtime time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, err := m.walk(name)
	if err != nil {
		return pathErr("chtimes", name, err)
	}
	if !mtime.IsZero() {
		n.mtime = mtime
	}
	return nil
}

// File is the handle type every layer returns.
type File = vfs.File

// memFile is an open regular file of a MemFs.
type memFile struct {
	fs     *MemFs
	node   *memNode
	name   string
	flag   int
	off    int64
	closed bool
}

func (f *memFile) Name() string { return f.name }
func (f *memFile) Close() error {
	f.closed = true
	return nil
}
func (f *memFile) Sync() error { return nil }

func (f *memFile) Stat() (fs.FileInfo, error) {
	f.fs.mu.RLock()
	defer f.fs.mu.RUnlock()
	return f.node.info(path.Base(f.name)), nil
}

func (f *memFile) Readdir(int) ([]fs.FileInfo, error) {
	return nil, pathErr("readdirent", f.name, syscall.ENOTDIR)
}
func (f *memFile) Readdirnames(int) ([]string, error) {
	return nil, pathErr("readdirent", f.name, syscall.ENOTDIR)
}

func (f *memFile) Read(p []byte) (int, error) {
	n, err := f.ReadAt(p, f.off)
	f.off += int64(n)
	return n, err
}

func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	if f.closed {
		return 0, pathErr("read", f.name, os.ErrClosed)
	}
	if f.flag&os.O_WRONLY != 0 {
		return 0, pathErr("read", f.name, syscall.EBADF)
	}
	f.fs.mu.RLock()
	defer f.fs.mu.RUnlock()
	if off < 0 {
		return 0, pathErr("read", f.name, syscall.EINVAL)
	}
	if off >= f.node.data.size {
		return 0, io.EOF
	}
	n := f.node.data.readAt(p, off)
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (f *memFile) Seek(offset int64, whence int) (int64, error) {
	f.fs.mu.RLock()
	size := f.node.data.size
	f.fs.mu.RUnlock()
	switch whence {
	case io.SeekCurrent:
		offset += f.off
	case io.SeekEnd:
		offset += size
	}
	if offset < 0 {
		return 0, pathErr("seek", f.name, syscall.EINVAL)
	}
	f.off = offset
	return offset, nil
}

func (f *memFile) Write(p []byte) (int, error) {
	if f.flag&os.O_APPEND != 0 {
		f.fs.mu.RLock()
		f.off = f.node.data.size
		f.fs.mu.RUnlock()
	}
	n, err := f.WriteAt(p, f.off)
	f.off += int64(n)
	return n, err
}

func (f *memFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	if f.closed {
		return 0, pathErr("write", f.name, os.ErrClosed)
	}
	if f.flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		return 0, pathErr("write", f.name, syscall.EBADF)
	}
	if off < 0 {
		return 0, pathErr("write", f.name, syscall.EINVAL)
	}
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if grow := off + int64(len(p)) - f.node.data.size; grow > 0 && len(p) > 0 {
		if !f.fs.quota.reserveBytes(grow) {
			return 0, pathErr("write", f.name, syscall.ENOSPC)
		}
	}
	f.node.data.writeAt(p, off)
	f.node.mtime = f.fs.now()
	return len(p), nil
}

func (f *memFile) Truncate(size int64) error {
	if f.flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		return pathErr("truncate", f.name, syscall.EINVAL)
	}
	return f.fs.truncateNode(f.node, f.name, size)
}

func (m *MemFs) truncateNode(n *memNode, name string, size int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if size < 0 {
		return pathErr("truncate", name, syscall.EINVAL)
	}
	cur := n.data.size
	if size > cur {
		if !m.quota.reserveBytes(size - cur) {
			return pathErr("truncate", name, syscall.ENOSPC)
		}
	} else {
		m.quota.release(cur-size, 0)
	}
	n.data.truncate(size)
	n.mtime = m.now()
	return nil
}

func underlying(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}
