package overlayfs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux the host layer resolves paths with openat2(2) and
// RESOLVE_BENEATH: the kernel walks the whole path in one call and refuses,
// race-free, any step that would leave the layer's directory (an absolute
// link, a ".." above it, a magic link). os.Root walks the same path with an
// openat per component. Whatever openat2 refuses or lacks (kernels before
// 5.6, seccomp filters) goes through os.Root, which has the last word on
// links that escape.

// errUseRoot sends a call to the os.Root path.
var errUseRoot = errors.New("overlayfs: resolve through os.Root")

// beneathDir returns a descriptor of the root's directory for openat2, or
// -1.
func beneathDir(root *os.Root) int {
	d, err := root.Open(".")
	if err != nil {
		return -1
	}
	defer d.Close()
	raw, err := d.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	raw.Control(func(sysfd uintptr) {
		if dup, err := unix.FcntlInt(sysfd, unix.F_DUPFD_CLOEXEC, 0); err == nil {
			fd = dup
		}
	})
	if fd >= 0 {
		// Probe once: a kernel or filter without openat2 falls back for good.
		if probe, err := openat2(fd, ".", unix.O_PATH|unix.O_DIRECTORY); err == nil {
			unix.Close(probe)
		} else {
			unix.Close(fd)
			fd = -1
		}
	}
	return fd
}

func closeBeneath(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

func openat2(dirfd int, rel string, flags int) (int, error) {
	how := unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(dirfd, rel, &how)
		if err == unix.EINTR {
			continue
		}
		return fd, err
	}
}

// openBeneath opens the layer path name with openat2, following the links
// inside the layer except a final one when flags hold O_NOFOLLOW. Callers
// pass O_PATH or O_NONBLOCK: the read lock is held across the call, so an
// open that waited (a FIFO without writer) would block Close for good.
func (h *HostFs) openBeneath(name string, flags int) (int, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.beneath < 0 {
		return -1, errUseRoot
	}
	fd, err := openat2(h.beneath, rel(name), flags)
	switch err {
	case nil:
		return fd, nil
	case unix.EXDEV, unix.ENOSYS, unix.EPERM, unix.EAGAIN:
		return -1, errUseRoot
	}
	return -1, err
}

// statBeneath is lstat (follow false) or stat of name.
func (h *HostFs) statBeneath(name string, follow bool) (fs.FileInfo, error) {
	flags := unix.O_PATH
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := h.openBeneath(name, flags)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	info := &hostInfo{name: path.Base(rel(name))}
	if err := unix.Fstat(fd, &info.st); err != nil {
		return nil, err
	}
	info.fill()
	return info, nil
}

// openReadBeneath opens name for reading, following links in the layer
// (a final one only if follow). A regular file comes as an fdFile, a
// directory as an os.File (unless dirs is false: EISDIR).
func (h *HostFs) openReadBeneath(name string, follow, dirs bool) (File, error) {
	flags := unix.O_RDONLY | unix.O_NONBLOCK // see refuseSpecial
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := h.openBeneath(name, flags)
	if err == unix.ELOOP && !follow {
		err = errUseRoot // os.Root decides what a final link means here
	}
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, err
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		// O_NONBLOCK stays: it changes nothing for a regular file.
		return newFdFile(fd, Clean(name), &st), nil
	case unix.S_IFDIR:
		if !dirs {
			unix.Close(fd)
			return nil, unix.EISDIR
		}
		// Back to blocking mode, so that os does not try the poller.
		unix.SetNonblock(fd, false)
		return &hostFile{File: os.NewFile(uintptr(fd), path.Base(rel(name))), name: Clean(name)}, nil
	}
	unix.Close(fd)
	return nil, unix.ENXIO
}

// readDirBeneath lists name with the kernel's d_type, stating each entry
// relative to the open directory unless typesOnly.
func (h *HostFs) readDirBeneath(name string, typesOnly bool) ([]fs.FileInfo, error) {
	// O_DIRECTORY fails on anything else before a FIFO's open could wait.
	fd, err := h.openBeneath(name, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	ents, err := readDirents(fd)
	if err != nil {
		return nil, err
	}
	infos := make([]fs.FileInfo, 0, len(ents))
	if typesOnly {
		for i := range ents {
			infos = append(infos, &ents[i])
		}
		return infos, nil
	}
	all := make([]hostInfo, len(ents)) // one allocation for the lot
	for i, e := range ents {
		info := &all[i]
		info.name = e.name
		if err := unix.Fstatat(fd, info.name, &info.st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			continue // removed meanwhile
		}
		info.fill()
		infos = append(infos, info)
	}
	return infos, nil
}

// direntScratch is what a listing needs only while it runs: the getdents
// buffer and the entries gathered so far. A walk lists thousands of
// directories; pooled, these are allocated a few times, not per listing.
type direntScratch struct {
	buf   []byte
	raw   []byte // the names, end to end
	ends  []int  // where each name ends in raw
	types []fs.FileMode
}

var direntScratches = sync.Pool{New: func() any { return &direntScratch{buf: make([]byte, 32<<10)} }}

// readDirents reads the open directory fd to its end, in the kernel's
// order, with each entry's file type from d_type ("." and ".." left out):
// one allocation for the entries, one for all their names. An entry the
// filesystem leaves untyped is lstated relative to fd; one removed
// meanwhile is left out.
func readDirents(fd int) ([]typeInfo, error) {
	sc := direntScratches.Get().(*direntScratch)
	defer direntScratches.Put(sc)
	sc.raw, sc.ends, sc.types = sc.raw[:0], sc.ends[:0], sc.types[:0]
	for {
		n, err := unix.Getdents(fd, sc.buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			break
		}
		for b := sc.buf[:n]; len(b) >= direntNameOff; {
			reclen := int(binary.NativeEndian.Uint16(b[direntReclenOff:]))
			if reclen < direntNameOff || reclen > len(b) {
				return nil, unix.EIO
			}
			rec := b[:reclen]
			b = b[reclen:]
			ino := binary.NativeEndian.Uint64(rec)
			name := rec[direntNameOff:]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if ino == 0 || isDotName(name) {
				continue
			}
			typ, ok := direntType(rec[direntTypeOff])
			if !ok {
				var st unix.Stat_t
				if err := unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					continue
				}
				typ = statType(st.Mode)
			}
			sc.raw = append(sc.raw, name...)
			sc.ends = append(sc.ends, len(sc.raw))
			sc.types = append(sc.types, typ)
		}
	}
	all := string(sc.raw)
	ents := make([]typeInfo, len(sc.ends))
	start := 0
	for i, end := range sc.ends {
		ents[i] = typeInfo{name: all[start:end], typ: sc.types[i]}
		start = end
	}
	if cap(sc.raw) > 1<<20 {
		// A huge directory's scratch is not kept for the next listing.
		sc.raw, sc.ends, sc.types = nil, nil, nil
	}
	return ents, nil
}

// The fields of struct linux_dirent64 after d_ino and d_off.
const (
	direntReclenOff = 16
	direntTypeOff   = 18
	direntNameOff   = 19
)

func isDotName(name []byte) bool {
	return len(name) == 1 && name[0] == '.' || len(name) == 2 && name[0] == '.' && name[1] == '.'
}

// direntType maps d_type to the file type bits; false for DT_UNKNOWN.
func direntType(t byte) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// hostInfo is a FileInfo read from a stat(2) result, as os builds one.
type hostInfo struct {
	name  string
	mode  fs.FileMode
	mtime time.Time
	st    unix.Stat_t
}

// fill derives mode and mtime from st.
func (i *hostInfo) fill() {
	st := &i.st
	mode := fs.FileMode(st.Mode&0o777) | statType(st.Mode)
	if st.Mode&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if st.Mode&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if st.Mode&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	i.mode, i.mtime = mode, time.Unix(st.Mtim.Unix())
}

// statType maps st_mode's file type to the file type bits.
func statType(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	}
	return 0
}

func (i *hostInfo) Name() string       { return i.name }
func (i *hostInfo) Size() int64        { return i.st.Size }
func (i *hostInfo) Mode() fs.FileMode  { return i.mode }
func (i *hostInfo) ModTime() time.Time { return i.mtime }
func (i *hostInfo) IsDir() bool        { return i.mode.IsDir() }
func (i *hostInfo) Sys() any           { return &i.st }
