package overlayfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"
)

// HostFs is a host directory seen through os.Root: no path handed to it, and
// no symlink inside it, can reach anything outside the directory, races
// included. A read-only HostFs refuses every change with EROFS.
type HostFs struct {
	root *os.Root
	// beneath is the directory for openat2 (Linux), or -1. mu keeps Close
	// from closing it under a running openat2, whose descriptor number
	// could otherwise be reused for another directory.
	mu       sync.RWMutex
	beneath  int
	readOnly bool
	fifos    hostFifos // see hostfifo.go
}

// NewHostFs opens dir as a layer.
func NewHostFs(dir string, readOnly bool) (*HostFs, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &HostFs{root: root, beneath: beneathDir(root), readOnly: readOnly}, nil
}

// Close releases the directory handles.
func (h *HostFs) Close() error {
	h.mu.Lock()
	closeBeneath(h.beneath)
	h.beneath = -1
	h.mu.Unlock()
	return h.root.Close()
}

// ReadOnly reports whether the layer refuses changes.
func (h *HostFs) ReadOnly() bool { return h.readOnly }

func (h *HostFs) Name() string { return "hostfs" }

// rel turns a layer path into the relative form os.Root wants.
func rel(name string) string {
	name = Clean(name)
	if name == "/" {
		return "."
	}
	return name[1:]
}

// fix rewrites an os.Root error to name the layer path, never a host path,
// and maps the escape refusal to the error the kernel would give.
func fix(op, name string, err error) error {
	if err == nil {
		return nil
	}
	e := underlying(err)
	if errors.Is(e, os.ErrPermission) && !errors.Is(e, syscall.EACCES) && !errors.Is(e, syscall.EPERM) && !errors.Is(e, syscall.EROFS) {
		// os.Root reports "path escapes from parent" for links that
		// leave the root: inside the sandbox such a path does not exist.
		e = syscall.ENOENT
	}
	if strings.Contains(e.Error(), "escapes") {
		e = syscall.ENOENT
	}
	return pathErr(op, Clean(name), e)
}

func (h *HostFs) writable(op, name string) error {
	if h.readOnly {
		return pathErr(op, Clean(name), syscall.EROFS)
	}
	return nil
}

func (h *HostFs) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	fi, err := h.statBeneath(name, false)
	if err == errUseRoot {
		fi, err = h.root.Lstat(rel(name))
	}
	if err != nil {
		return nil, true, fix("lstat", name, err)
	}
	return fi, true, nil
}

// Stat follows symlinks, resolving them inside the layer.
func (h *HostFs) Stat(name string) (fs.FileInfo, error) {
	resolved, err := ResolveIn(h, name, true)
	if err != nil {
		return nil, pathErr("stat", Clean(name), err)
	}
	fi, _, err := h.LstatIfPossible(resolved)
	if err != nil {
		return nil, pathErr("stat", Clean(name), underlying(err))
	}
	return RenamedInfo(fi, path.Base(Clean(name))), nil
}

func (h *HostFs) ReadlinkIfPossible(name string) (string, error) {
	t, err := h.root.Readlink(rel(name))
	return t, fix("readlink", name, err)
}

func (h *HostFs) SymlinkIfPossible(target, name string) error {
	if err := h.writable("symlink", name); err != nil {
		return err
	}
	err := h.root.Symlink(target, rel(name))
	if err != nil {
		return &os.LinkError{Op: "symlink", Old: target, New: Clean(name), Err: underlying(fix("symlink", name, err))}
	}
	return nil
}

// Link makes a hard link inside the host directory: os.Root resolves both
// names beneath it and does not follow a final symlink, so the link is to
// a file of the volume.
func (h *HostFs) Link(oldname, newname string) error {
	if err := h.writable("link", newname); err != nil {
		return err
	}
	if err := h.root.Link(rel(oldname), rel(newname)); err != nil {
		return &os.LinkError{Op: "link", Old: Clean(oldname), New: Clean(newname), Err: underlying(fix("link", newname, err))}
	}
	return nil
}

func (h *HostFs) Create(name string) (File, error) {
	return h.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (h *HostFs) Open(name string) (File, error) { return h.OpenFile(name, os.O_RDONLY, 0) }

func (h *HostFs) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	if isWrite(flag) {
		if err := h.writable("open", name); err != nil {
			return nil, err
		}
	}
	// O_NOFOLLOW: the namespace resolves links itself; a link here would
	// be a race, and os.Root keeps even that inside the root.
	if flag == os.O_RDONLY {
		f, err := h.openReadBeneath(name, false, true)
		if err != errUseRoot {
			return f, fix("open", name, err)
		}
	}
	f, err := h.openHost(name, flag, perm)
	if err == nil {
		err = refuseSpecial(f)
	}
	if err != nil {
		return nil, fix("open", name, err)
	}
	return &hostFile{File: f, name: Clean(name)}, nil
}

// specialBits are the mode bits a script may not set on the host: a
// setuid or setgid file made in a read-write volume would run with its
// owner's rights (root's, when the server runs as root) for anyone on the
// host who executes it. The sticky bit goes too: it changes who may
// delete in a host directory.
const specialBits = fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

func safePerm(perm fs.FileMode) fs.FileMode { return perm &^ specialBits }

// refuseSpecial closes f and fails with ENXIO unless it is a regular file
// or a directory. Host files are opened with O_NONBLOCK, so opening a FIFO,
// socket or device never waits; reading one could still block a call
// forever (a FIFO without writer) or read a disk, so the sandbox refuses
// them as the kernel refuses a socket: "No such device or address".
func refuseSpecial(f *os.File) error {
	fi, err := f.Stat()
	if err == nil && (fi.Mode().IsRegular() || fi.IsDir()) {
		return nil
	}
	f.Close()
	if err != nil {
		return err
	}
	return syscall.ENXIO
}

// ReadDir lists name in the host filesystem's own order.
func (h *HostFs) ReadDir(name string) ([]fs.FileInfo, error) { return h.readDir(name, false) }

// ReadDirTypes lists name by entry name and type only (TypeLister): one
// getdents pass, no lstat per entry.
func (h *HostFs) ReadDirTypes(name string) ([]fs.FileInfo, error) { return h.readDir(name, true) }

func (h *HostFs) readDir(name string, typesOnly bool) ([]fs.FileInfo, error) {
	if infos, err := h.readDirBeneath(name, typesOnly); err != errUseRoot {
		return infos, fix("open", name, err)
	}
	f, err := h.root.OpenFile(rel(name), os.O_RDONLY|oDirectory|oNonBlock, 0)
	if err != nil {
		return nil, fix("open", name, err)
	}
	defer f.Close()
	if typesOnly {
		entries, err := listTypes(f)
		if err != nil {
			return nil, fix("readdirent", name, err)
		}
		return typeInfos(entries), nil
	}
	entries, err := f.ReadDir(-1) // an lstat per entry, relative to f
	if err != nil {
		return nil, fix("readdirent", name, err)
	}
	infos := make([]fs.FileInfo, 0, len(entries))
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		infos = append(infos, fi)
	}
	return infos, nil
}

func (h *HostFs) Mkdir(name string, perm fs.FileMode) error {
	if err := h.writable("mkdir", name); err != nil {
		return err
	}
	err := h.root.Mkdir(rel(name), safePerm(perm))
	if err == nil && perm&processUmask != 0 {
		err = h.root.Chmod(rel(name), safePerm(perm))
	}
	return fix("mkdir", name, err)
}

func (h *HostFs) MkdirAll(name string, perm fs.FileMode) error { return MkdirAll(h, name, perm) }

func (h *HostFs) Remove(name string) error {
	if err := h.writable("remove", name); err != nil {
		return err
	}
	return fix("remove", name, h.root.Remove(rel(name)))
}

func (h *HostFs) RemoveAll(name string) error {
	if err := h.writable("remove", name); err != nil {
		return err
	}
	return RemoveAll(h, name)
}

func (h *HostFs) Rename(oldname, newname string) error {
	if err := h.writable("rename", oldname); err != nil {
		return err
	}
	err := h.root.Rename(rel(oldname), rel(newname))
	if err != nil {
		// rename(2) replaces an empty directory; os.Root refuses to.
		ofi, oerr := h.root.Lstat(rel(oldname))
		nfi, nerr := h.root.Lstat(rel(newname))
		if oerr == nil && nerr == nil && ofi.IsDir() && nfi.IsDir() && h.root.Remove(rel(newname)) == nil {
			err = h.root.Rename(rel(oldname), rel(newname))
		}
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: Clean(oldname), New: Clean(newname), Err: underlying(fix("rename", oldname, err))}
	}
	return nil
}

func (h *HostFs) Chmod(name string, mode fs.FileMode) error {
	if err := h.writable("chmod", name); err != nil {
		return err
	}
	return fix("chmod", name, h.root.Chmod(rel(name), safePerm(mode)))
}

func (h *HostFs) Chown(name string, uid, gid int) error {
	return h.writable("chown", name)
}

func (h *HostFs) Chtimes(name string, atime, mtime time.Time) error {
	if err := h.writable("chtimes", name); err != nil {
		return err
	}
	return fix("chtimes", name, h.root.Chtimes(rel(name), atime, mtime))
}

// hostFile reports layer paths, never host paths, in its name and errors.
type hostFile struct {
	*os.File
	name string
}

func (f *hostFile) Name() string { return f.name }

// OpenStater is implemented by files that kept what the stat their open
// took found: the type, size and times as they were at the open, without a
// system call. Stat is the file as it is now.
type OpenStater interface {
	OpenInfo() fs.FileInfo // nil when the file kept nothing
}

// OSFiler is implemented by files that may be host files underneath.
type OSFiler interface {
	// OSFile returns the host file, or nil. Its name is not the layer
	// path: callers use it for I/O, never for messages.
	OSFile() *os.File
}

func (f *hostFile) OSFile() *os.File { return f.File }

func (f *hostFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	return fi, fix("stat", f.name, err)
}

func (f *hostFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	return n, hostIOErr("read", f.name, err)
}

func (f *hostFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(p, off)
	return n, hostIOErr("read", f.name, err)
}

func (f *hostFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	return n, hostIOErr("write", f.name, err)
}

func (f *hostFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *hostFile) Readdir(n int) ([]fs.FileInfo, error) {
	fis, err := f.File.Readdir(n)
	return fis, hostIOErr("readdirent", f.name, err)
}

// ReadDir shadows os.File's: for a file opened by descriptor (openat2),
// os would state entries by a path relative to the process's working
// directory; Readdir states them relative to the open directory.
func (f *hostFile) ReadDir(n int) ([]fs.DirEntry, error) {
	fis, err := f.Readdir(n)
	entries := make([]fs.DirEntry, len(fis))
	for i, fi := range fis {
		entries[i] = fs.FileInfoToDirEntry(fi)
	}
	return entries, err
}

func (f *hostFile) Readdirnames(n int) ([]string, error) {
	names, err := f.File.Readdirnames(n)
	return names, hostIOErr("readdirent", f.name, err)
}

func hostIOErr(op, name string, err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	return pathErr(op, name, underlying(err))
}

// OpenFollow opens name, a file that is not a directory (EISDIR), for
// reading, letting os.Root follow symlinks that stay inside the layer. It
// fails (and the caller resolves the slow way) on any link that leaves the
// layer or is absolute: those are resolved in the guest namespace, which
// os.Root knows nothing of.
func (h *HostFs) OpenFollow(name string) (File, error) {
	if f, err := h.openReadBeneath(name, true, false); err != errUseRoot {
		return f, err
	}
	f, err := h.root.OpenFile(rel(name), os.O_RDONLY|oNonBlock, 0)
	if err == nil {
		err = refuseSpecial(f)
	}
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || fi.IsDir() {
		f.Close()
		if err == nil {
			err = syscall.EISDIR
		}
		return nil, err
	}
	return &hostFile{File: f, name: Clean(name)}, nil
}

// StatFollow is Stat with the same fast path as OpenFollow.
func (h *HostFs) StatFollow(name string) (fs.FileInfo, error) {
	if fi, err := h.statBeneath(name, true); err != errUseRoot {
		return fi, err
	}
	return h.root.Stat(rel(name))
}

// LstatFollowParents is lstat with os.Root resolving the parent
// components (links inside the layer only), as OpenFollow does.
func (h *HostFs) LstatFollowParents(name string) (fs.FileInfo, error) {
	if fi, err := h.statBeneath(name, false); err != errUseRoot {
		return fi, err
	}
	return h.root.Lstat(rel(name))
}
