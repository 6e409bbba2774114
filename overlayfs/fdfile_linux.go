package overlayfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// fdFile is a regular host file open for reading, held by its bare
// descriptor. os.NewFile would cost three fcntl calls per open (clearing
// the O_NONBLOCK the open needs, then reading the flags back) and a
// poller registration; a walk that opens every file of a tree (xargs grep)
// pays that per file. Regular files never block, so no poller is needed.
type fdFile struct {
	// mu is held shared by every I/O call and exclusively by Close: a
	// closed descriptor number is reused at once, and a read racing the
	// close must not land in another file.
	mu      sync.RWMutex
	fd      int // -1 once closed
	name    string
	cleanup runtime.Cleanup
	opened  hostInfo // what the open's fstat found (see OpenInfo)
	// off is the file offset as Read and Seek left it. atEnd is set when
	// a Read came back short exactly at the size the open found: the next
	// Read answers io.EOF without asking the kernel (see Read).
	off   atomic.Int64
	atEnd atomic.Bool
}

// newFdFile takes ownership of fd, a regular file open for reading; name
// is the layer path and st what fstat found on fd.
func newFdFile(fd int, name string, st *unix.Stat_t) *fdFile {
	f := &fdFile{fd: fd, name: name, opened: hostInfo{name: path.Base(name), st: *st}}
	f.opened.fill()
	// A command that forgets Close must not leak the descriptor for the
	// life of the server.
	f.cleanup = runtime.AddCleanup(f, func(fd int) { unix.Close(fd) }, fd)
	return f
}

func (f *fdFile) Name() string { return f.name }

// OSFile: there is none, and writes are refused anyway.
func (f *fdFile) OSFile() *os.File { return nil }

func (f *fdFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return pathErr("close", f.name, os.ErrClosed)
	}
	f.cleanup.Stop()
	err := unix.Close(f.fd)
	f.fd = -1
	if err != nil && err != unix.EINTR {
		return pathErr("close", f.name, err)
	}
	return nil
}

// use runs op on the open descriptor, or fails as a closed os.File does.
func (f *fdFile) use(op string, do func(fd int) error) error {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.fd < 0 {
		return pathErr(op, f.name, os.ErrClosed)
	}
	if err := do(f.fd); err != nil {
		return pathErr(op, f.name, err)
	}
	return nil
}

// Read reads from the file offset. Reading a file to its end takes one
// more read(2) that returns 0; every command that reads whole files (grep
// -r, xargs cat) paid it per file. A read that comes back short, ending
// exactly at the size the open found, has seen the end: the next Read
// answers io.EOF itself, once, and the one after asks the kernel again
// (tail -f). A writer that appends in between is seen as one that
// appended just after an EOF read would be.
func (f *fdFile) Read(p []byte) (int, error) {
	if len(p) > 0 && f.atEnd.CompareAndSwap(true, false) {
		return 0, io.EOF
	}
	var n int
	err := f.use("read", func(fd int) (err error) {
		if len(p) == 0 {
			return nil
		}
		n, err = retryEINTR(func() (int, error) { return unix.Read(fd, p) })
		return err
	})
	if err == nil && n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	if n > 0 {
		if off := f.off.Add(int64(n)); n < len(p) && off == f.opened.st.Size {
			f.atEnd.Store(true)
		}
	}
	return n, err
}

// ReadAt fills p from off, as os.File's does: a short read is io.EOF.
func (f *fdFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, pathErr("readat", f.name, errNegativeOffset)
	}
	total := 0
	err := f.use("read", func(fd int) error {
		for total < len(p) {
			n, err := retryEINTR(func() (int, error) { return unix.Pread(fd, p[total:], off+int64(total)) })
			if err != nil {
				return err
			}
			if n == 0 {
				return io.EOF
			}
			total += n
		}
		return nil
	})
	if pe, ok := err.(*fs.PathError); ok && pe.Err == io.EOF {
		err = io.EOF
	}
	return total, err
}

// errNegativeOffset is os.File's error for a negative ReadAt offset.
var errNegativeOffset = errors.New("negative offset")

func (f *fdFile) Seek(offset int64, whence int) (int64, error) {
	var ret int64
	err := f.use("seek", func(fd int) (err error) {
		ret, err = unix.Seek(fd, offset, whence)
		return err
	})
	if err == nil {
		f.atEnd.Store(false)
		f.off.Store(ret)
	}
	return ret, err
}

func (f *fdFile) Stat() (fs.FileInfo, error) {
	info := &hostInfo{name: path.Base(f.name)}
	if err := f.use("stat", func(fd int) error { return unix.Fstat(fd, &info.st) }); err != nil {
		return nil, err
	}
	info.fill()
	return info, nil
}

// OpenInfo is the file as its open found it (OpenStater): the open had to
// fstat the descriptor to refuse FIFOs and devices, and a caller that only
// needs the type, or a size as a hint, need not pay a second fstat.
func (f *fdFile) OpenInfo() fs.FileInfo { return &f.opened }

func (f *fdFile) Sync() error {
	return f.use("sync", func(fd int) error { return unix.Fsync(fd) })
}

// The descriptor is read-only: writes fail as they would on it.

func (f *fdFile) Write([]byte) (int, error) { return 0, pathErr("write", f.name, syscall.EBADF) }

func (f *fdFile) WriteAt([]byte, int64) (int, error) {
	return 0, pathErr("write", f.name, syscall.EBADF)
}

func (f *fdFile) WriteString(string) (int, error) {
	return 0, pathErr("write", f.name, syscall.EBADF)
}

func (f *fdFile) Truncate(size int64) error {
	return f.use("truncate", func(fd int) error { return unix.Ftruncate(fd, size) })
}

func (f *fdFile) Readdir(int) ([]fs.FileInfo, error) {
	return nil, pathErr("readdirent", f.name, syscall.ENOTDIR)
}

func (f *fdFile) Readdirnames(int) ([]string, error) {
	return nil, pathErr("readdirent", f.name, syscall.ENOTDIR)
}

func retryEINTR(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != unix.EINTR {
			if n < 0 {
				n = 0
			}
			return n, err
		}
	}
}
