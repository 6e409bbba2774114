package overlayfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
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
// (a final one only if follow).
func (h *HostFs) openReadBeneath(name string, follow bool) (*os.File, error) {
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
	if t := st.Mode & unix.S_IFMT; t != unix.S_IFREG && t != unix.S_IFDIR {
		unix.Close(fd)
		return nil, unix.ENXIO
	}
	// Back to blocking mode, so that os does not try the poller.
	unix.SetNonblock(fd, false)
	return os.NewFile(uintptr(fd), path.Base(rel(name))), nil
}

// readDirBeneath lists name with the kernel's d_type, stating each entry
// relative to the open directory unless typesOnly.
func (h *HostFs) readDirBeneath(name string, typesOnly bool) ([]fs.FileInfo, error) {
	fd, err := h.openBeneath(name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	d := os.NewFile(uintptr(fd), path.Base(rel(name)))
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil, underlying(err)
	}
	if typesOnly {
		return typeInfos(entries), nil
	}
	infos := make([]fs.FileInfo, 0, len(entries))
	all := make([]hostInfo, len(entries)) // one allocation for the lot
	for i, e := range entries {
		info := &all[i]
		info.name = e.Name()
		if err := unix.Fstatat(fd, info.name, &info.st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			continue // removed meanwhile
		}
		info.fill()
		infos = append(infos, info)
	}
	return infos, nil
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
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	}
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

func (i *hostInfo) Name() string       { return i.name }
func (i *hostInfo) Size() int64        { return i.st.Size }
func (i *hostInfo) Mode() fs.FileMode  { return i.mode }
func (i *hostInfo) ModTime() time.Time { return i.mtime }
func (i *hostInfo) IsDir() bool        { return i.mode.IsDir() }
func (i *hostInfo) Sys() any           { return &i.st }
