package overlayfs

import (
	"io/fs"
	"os"
	"sync/atomic"
	"syscall"
)

// WriteQuota bounds what one call writes through to read-write host
// layers: bytes written and entries (files, directories, links) created.
// A write past it fails with ENOSPC, as on a full disk, after writing what
// still fits. It is safe for concurrent use.
type WriteQuota struct {
	MaxBytes int64
	MaxFiles int64
	// OnExceeded is called with "write_bytes" or "write_files" when a
	// write or creation is refused.
	OnExceeded func(budget string)

	bytes atomic.Int64
	files atomic.Int64
}

// Bytes reports the bytes written so far.
func (q *WriteQuota) Bytes() int64 { return q.bytes.Load() }

// Files reports the entries created so far.
func (q *WriteQuota) Files() int64 { return q.files.Load() }

// Reset starts counting afresh, for the next call of a session.
func (q *WriteQuota) Reset() {
	q.bytes.Store(0)
	q.files.Store(0)
}

// Remaining reports the bytes and entries the quota still allows; -1
// for a dimension without a limit.
func (q *WriteQuota) Remaining() (bytes, files int64) {
	bytes, files = -1, -1
	if q.MaxBytes > 0 {
		bytes = max(0, q.MaxBytes-q.bytes.Load())
	}
	if q.MaxFiles > 0 {
		files = max(0, q.MaxFiles-q.files.Load())
	}
	return bytes, files
}

// Charge counts writes made past the metered layers (a host process
// writing to a read-write volume), after the fact. It reports false, and
// trips the budget, when they went over the quota: they are counted whole,
// since they are on the disk already.
func (q *WriteQuota) Charge(bytes, files int64) bool {
	ok := true
	if v := q.bytes.Add(max(0, bytes)); q.MaxBytes > 0 && v > q.MaxBytes {
		q.exceeded("write_bytes")
		ok = false
	}
	if v := q.files.Add(max(0, files)); ok && q.MaxFiles > 0 && v > q.MaxFiles {
		q.exceeded("write_files")
		ok = false
	}
	return ok
}

// takeBytes reserves up to n bytes and reports how many it got.
func (q *WriteQuota) takeBytes(n int64) int64 {
	if q == nil || q.MaxBytes <= 0 || n <= 0 {
		if q != nil {
			q.bytes.Add(n)
		}
		return n
	}
	v := q.bytes.Add(n)
	if v <= q.MaxBytes {
		return n
	}
	got := max(0, n-(v-q.MaxBytes))
	q.bytes.Add(got - n)
	q.exceeded("write_bytes")
	return got
}

func (q *WriteQuota) takeFile() bool {
	if q == nil {
		return true
	}
	if v := q.files.Add(1); q.MaxFiles > 0 && v > q.MaxFiles {
		q.files.Add(-1)
		q.exceeded("write_files")
		return false
	}
	return true
}

func (q *WriteQuota) exceeded(budget string) {
	if q.OnExceeded != nil {
		q.OnExceeded(budget)
	}
}

// MeteredHost is a read-write host layer as one call sees it: the shared
// HostFs, with what the call writes counted against its WriteQuota.
type MeteredHost struct {
	*HostFs
	quota *WriteQuota
	mem   *Quota // see HoldFifoData
}

// NewMeteredHost meters writes to h against q.
func NewMeteredHost(h *HostFs, q *WriteQuota) *MeteredHost {
	return &MeteredHost{HostFs: h, quota: q}
}

// Host is the layer underneath, for reads.
func (m *MeteredHost) Host() *HostFs { return m.HostFs }

func (m *MeteredHost) Create(name string) (File, error) {
	return m.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (m *MeteredHost) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	if !isWrite(flag) {
		return m.HostFs.OpenFile(name, flag, perm)
	}
	if err := m.writable("open", name); err != nil {
		return nil, err
	}
	if flag&os.O_CREATE != 0 {
		if _, _, err := m.HostFs.LstatIfPossible(name); os.IsNotExist(err) && !m.quota.takeFile() {
			return nil, pathErr("open", Clean(name), syscall.ENOSPC)
		}
	}
	f, err := m.HostFs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &meteredFile{File: f, quota: m.quota}, nil
}

func (m *MeteredHost) Mkdir(name string, perm fs.FileMode) error {
	if err := m.writable("mkdir", name); err != nil {
		return err
	}
	if !m.quota.takeFile() {
		return pathErr("mkdir", Clean(name), syscall.ENOSPC)
	}
	return m.HostFs.Mkdir(name, perm)
}

func (m *MeteredHost) MkdirAll(name string, perm fs.FileMode) error { return MkdirAll(m, name, perm) }

func (m *MeteredHost) SymlinkIfPossible(target, name string) error {
	if err := m.writable("symlink", name); err != nil {
		return err
	}
	if !m.quota.takeFile() {
		return &os.LinkError{Op: "symlink", Old: target, New: Clean(name), Err: syscall.ENOSPC}
	}
	return m.HostFs.SymlinkIfPossible(target, name)
}

func (m *MeteredHost) Link(oldname, newname string) error {
	if err := m.writable("link", newname); err != nil {
		return err
	}
	if !m.quota.takeFile() {
		return &os.LinkError{Op: "link", Old: Clean(oldname), New: Clean(newname), Err: syscall.ENOSPC}
	}
	return m.HostFs.Link(oldname, newname)
}

// meteredFile counts the bytes written through it.
type meteredFile struct {
	File
	quota *WriteQuota
}

// OSFile hides the host file: writes through it would not be counted.
func (f *meteredFile) OSFile() *os.File { return nil }

func (f *meteredFile) Write(p []byte) (int, error) {
	got := f.quota.takeBytes(int64(len(p)))
	n, err := f.File.Write(p[:got])
	f.quota.takeBytes(int64(n) - got) // give back what was not written
	if err == nil && n < len(p) {
		err = pathErr("write", f.Name(), syscall.ENOSPC)
	}
	return n, err
}

func (f *meteredFile) WriteAt(p []byte, off int64) (int, error) {
	got := f.quota.takeBytes(int64(len(p)))
	n, err := f.File.WriteAt(p[:got], off)
	f.quota.takeBytes(int64(n) - got)
	if err == nil && n < len(p) {
		err = pathErr("write", f.Name(), syscall.ENOSPC)
	}
	return n, err
}

func (f *meteredFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }
