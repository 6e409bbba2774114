package volumes

import (
	"context"
	"crypto/rand"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/vfs"
)

// Namespace is the guest filesystem of one call: a vfs.FS over guest
// paths. Symlinks are resolved here, in the guest namespace (an absolute
// target is a guest path), so no link can lead to a host path outside the
// volumes. Errors name the guest path the caller gave.
type Namespace struct {
	mounts      []mount  // innermost first; the synthetic root last
	commandList []string // sorted
	quota       *overlayfs.Quota
	writes      *overlayfs.WriteQuota
	owners      owners
	pace        func() // see Options.Pace
}

// Quota is the in-memory layers' shared quota (bytes and entries held).
func (ns *Namespace) Quota() *overlayfs.Quota { return ns.quota }

// WriteQuota is what the call may still write through to read-write
// volumes (nil when unmetered), for writers that bypass the namespace:
// fallback processes.
func (ns *Namespace) WriteQuota() *overlayfs.WriteQuota { return ns.writes }

// Mounts lists the volumes, outermost first.
func (ns *Namespace) Mounts() []Mount {
	var out []Mount
	for i := len(ns.mounts) - 1; i >= 0; i-- {
		m := ns.mounts[i]
		if m.vol != nil {
			out = append(out, Mount{GuestPath: m.guest, HostDir: m.vol.HostDir, Mode: m.vol.Mode, Rel: "/"})
		}
	}
	return out
}

var bootTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// devices are the character devices of /dev, in listing order.
var devices = []string{"fd", "null", "random", "stderr", "stdin", "stdout", "urandom", "zero"}

type syntheticInfo struct {
	name string
	mode fs.FileMode
}

func (s syntheticInfo) Name() string       { return s.name }
func (s syntheticInfo) Size() int64        { return 0 }
func (s syntheticInfo) Mode() fs.FileMode  { return s.mode }
func (s syntheticInfo) ModTime() time.Time { return bootTime }
func (s syntheticInfo) IsDir() bool        { return s.mode.IsDir() }
func (s syntheticInfo) Sys() any           { return nil }

// synthetic answers for the parts of the root that are not files: the
// command directories and the devices.
func (ns *Namespace) synthetic(p string) (fs.FileInfo, bool) {
	dir, base := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case p == "/bin" || p == "/usr/bin":
		return syntheticInfo{base, fs.ModeDir | 0o755}, true
	case (dir == "/bin" || dir == "/usr/bin") && ns.isCommand(base):
		return syntheticInfo{base, 0o755}, true
	case dir == "/bin" || dir == "/usr/bin":
		return nil, true
	case p == "/dev/fd":
		return syntheticInfo{base, fs.ModeDir | 0o500}, true
	case dir == "/dev":
		for _, d := range devices {
			if d == base {
				return syntheticInfo{base, fs.ModeDevice | fs.ModeCharDevice | 0o666}, true
			}
		}
		return nil, true
	case dir == "/dev/fd":
		switch base {
		case "0", "1", "2":
			return syntheticInfo{base, fs.ModeDevice | fs.ModeCharDevice | 0o620}, true
		}
		return nil, true
	}
	return nil, false
}

func (ns *Namespace) isCommand(name string) bool {
	_, found := slices.BinarySearch(ns.commandList, name)
	return found
}

// find returns the mount holding guest path p and p's path inside it.
func (ns *Namespace) find(p string) (*mount, string) {
	for i := range ns.mounts {
		m := &ns.mounts[i]
		if m.guest == "/" {
			return m, p
		}
		if p == m.guest {
			return m, "/"
		}
		if strings.HasPrefix(p, m.guest+"/") {
			return m, p[len(m.guest):]
		}
	}
	panic("unreachable: the root mount matches every path")
}

// trailingSlash reports whether name ends in a slash after a component: the
// kernel then follows a final symlink and requires a directory.
func trailingSlash(name string) bool {
	return len(name) > 1 && strings.HasSuffix(name, "/") && strings.Trim(name, "/") != ""
}

// dirCheck applies the trailing-slash rule to a looked-up entry.
func dirCheck(name string, fi fs.FileInfo) error {
	if trailingSlash(name) && !fi.IsDir() {
		return syscall.ENOTDIR
	}
	return nil
}

// LstatIfPossible reports on p without following a final symlink.
func (ns *Namespace) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	if h, rel, ok := ns.fastHost(name); ok && rel != "/" {
		if fi, err := h.LstatFollowParents(rel); err == nil {
			return fi, true, nil
		}
	}
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, trailingSlash(name))
	if err != nil {
		return nil, true, pathErr("lstat", name, err)
	}
	fi, err := ns.lstatRaw(p)
	if err == nil {
		err = dirCheck(name, fi)
	}
	if err != nil {
		return nil, true, pathErr("lstat", name, err)
	}
	return fi, true, nil
}

// Stat reports on name, following symlinks.
func (ns *Namespace) Stat(name string) (fs.FileInfo, error) {
	if h, rel, ok := ns.fastHost(name); ok {
		if fi, err := h.StatFollow(rel); err == nil {
			if rel == "/" { // the volume's root: named as its mount point
				fi = overlayfs.RenamedInfo(fi, path.Base(overlayfs.Clean(name)))
			}
			return fi, nil
		}
	}
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, true)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	fi, err := ns.lstatRaw(p)
	if err == nil {
		err = dirCheck(name, fi)
	}
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return overlayfs.RenamedInfo(fi, path.Base(overlayfs.Clean(name))), nil
}

// Resolve returns the physical guest path of name (all symlinks followed,
// or all but the last with followLast false).
func (ns *Namespace) Resolve(name string, followLast bool) (string, error) {
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, followLast)
	if err != nil {
		return p, pathErr("stat", name, err)
	}
	return p, nil
}

func (ns *Namespace) lstatRaw(p string) (fs.FileInfo, error) {
	if fi, ok := ns.synthetic(p); ok {
		if fi == nil {
			return nil, syscall.ENOENT
		}
		return fi, nil
	}
	m, rel := ns.find(p)
	fi, _, err := m.layer.LstatIfPossible(rel)
	if err != nil {
		return nil, underlying(err)
	}
	if rel == "/" && p != "/" {
		fi = overlayfs.RenamedInfo(fi, path.Base(p))
	}
	return fi, nil
}

// rawNS exposes the namespace's non-resolving lookups to the resolver.
type rawNS struct{ ns *Namespace }

func (r rawNS) LstatIfPossible(p string) (fs.FileInfo, bool, error) {
	fi, err := r.ns.lstatRaw(p)
	return fi, true, err
}

func (r rawNS) ReadlinkIfPossible(p string) (string, error) {
	return r.ns.readlinkRaw(p)
}

func (ns *Namespace) readlinkRaw(p string) (string, error) {
	if _, ok := ns.synthetic(p); ok {
		return "", syscall.EINVAL
	}
	m, rel := ns.find(p)
	t, err := m.layer.ReadlinkIfPossible(rel)
	return t, underlying(err)
}

func (ns *Namespace) ReadlinkIfPossible(name string) (string, error) {
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, false)
	if err != nil {
		return "", pathErr("readlink", name, err)
	}
	t, err := ns.readlinkRaw(p)
	if err != nil {
		return "", pathErr("readlink", name, err)
	}
	return t, nil
}

func (ns *Namespace) SymlinkIfPossible(target, name string) error {
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, false)
	if err == nil {
		err = ns.writableRaw(p)
	}
	if err == nil {
		m, rel := ns.find(p)
		err = underlying(m.layer.SymlinkIfPossible(target, rel))
	}
	if err != nil {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: err}
	}
	return nil
}

// writableRaw refuses changes to the synthetic parts of the root.
func (ns *Namespace) writableRaw(p string) error {
	if _, ok := ns.synthetic(p); ok {
		return syscall.EACCES
	}
	if p == "/" || p == "/usr" {
		return syscall.EACCES
	}
	return nil
}

func (ns *Namespace) Name() string { return "bashbox" }

func (ns *Namespace) Create(name string) (overlayfs.File, error) {
	return ns.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (ns *Namespace) Open(name string) (overlayfs.File, error) {
	return ns.OpenFile(name, os.O_RDONLY, 0)
}

// fastHost returns the host layer that can serve a read of the guest path
// p directly: p lies in a read-write volume, or in a read-only one whose
// overlay holds no change yet, with no other volume mounted below it. The
// host layer follows links inside its own directory, and one could lead
// under a nested mount point, to the host files that mount covers.
func (ns *Namespace) fastHost(p string) (*overlayfs.HostFs, string, bool) {
	if !path.IsAbs(p) || strings.Contains(p, "/..") || trailingSlash(p) {
		return nil, "", false
	}
	m, rel := ns.find(path.Clean(p))
	if m.vol == nil || m.nested {
		return nil, "", false
	}
	switch l := m.layer.(type) {
	case *overlayfs.MeteredHost:
		return l.Host(), rel, true
	case *overlayfs.HostFs:
		return l, rel, true
	case *overlayfs.Overlay:
		if base, pristine := l.Base(); pristine {
			h, ok := base.(*overlayfs.HostFs)
			return h, rel, ok
		}
	}
	return nil, "", false
}

func (ns *Namespace) OpenFile(name string, flag int, perm fs.FileMode) (overlayfs.File, error) {
	return ns.OpenFileContext(nil, name, flag, perm)
}

// OpenFileContext is OpenFile where an open of a FIFO, and its reads and
// writes, may wait for the other end until ctx ends (nil: never wait).
func (ns *Namespace) OpenFileContext(ctx context.Context, name string, flag int, perm fs.FileMode) (overlayfs.File, error) {
	if ns.pace != nil {
		ns.pace()
	}
	// Fast path for reads: os.Root resolves in one call what the guest
	// resolver does a component at a time; any failure (a link leaving the
	// volume, an absolute link, a missing file) takes the exact path below.
	if flag == os.O_RDONLY {
		if h, rel, ok := ns.fastHost(name); ok {
			if f, err := h.OpenFollow(rel); err == nil { // never a directory
				return &namedFile{File: f, name: name}, nil
			}
		}
	}
	if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
		// O_EXCL does not follow a final symlink, dangling or not.
		if lp, err := overlayfs.ResolveIn(rawNS{ns}, name, false); err == nil {
			if _, err := ns.lstatRaw(lp); err == nil {
				return nil, pathErr("open", name, syscall.EEXIST)
			}
		}
	}
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, true)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if trailingSlash(name) {
		fi, err := ns.lstatRaw(p)
		switch {
		case err != nil && flag&os.O_CREATE != 0:
			return nil, pathErr("open", name, syscall.EISDIR)
		case err == nil && !fi.IsDir():
			return nil, pathErr("open", name, syscall.ENOTDIR)
		}
	}
	if f, err, ok := ns.openSynthetic(p, flag); ok {
		if err != nil {
			return nil, pathErr("open", name, err)
		}
		return f, nil
	}
	if flag&os.O_CREATE != 0 {
		if err := ns.writableRaw(path.Dir(p)); err != nil && p != "/" {
			if _, statErr := ns.lstatRaw(p); statErr != nil {
				return nil, pathErr("open", name, err)
			}
		}
	}
	m, rel := ns.find(p)
	if m.guest != "/" || !strings.HasPrefix(p, "/dev/") {
		f, err := overlayfs.OpenFileContext(ctx, m.layer, rel, flag, perm)
		if err != nil {
			return nil, pathErr("open", name, underlying(err))
		}
		if fi, statErr := f.Stat(); statErr == nil && fi.IsDir() {
			entries, err := ns.ReadDir(p)
			f.Close()
			if err != nil {
				return nil, pathErr("open", name, underlying(err))
			}
			return overlayfs.NewDirFile(name, fi, entries), nil
		}
		return &namedFile{File: f, name: name}, nil
	}
	return nil, pathErr("open", name, syscall.EACCES)
}

func (ns *Namespace) openSynthetic(p string, flag int) (overlayfs.File, error, bool) {
	fi, ok := ns.synthetic(p)
	if !ok {
		return nil, nil, false
	}
	if fi == nil {
		if flag&os.O_CREATE != 0 {
			return nil, syscall.EACCES, true
		}
		return nil, syscall.ENOENT, true
	}
	if fi.IsDir() {
		entries, err := ns.ReadDir(p)
		if err != nil {
			return nil, err, true
		}
		return overlayfs.NewDirFile(p, fi, entries), nil, true
	}
	switch p {
	case "/dev/null":
		return &device{name: p, info: fi}, nil, true
	case "/dev/zero":
		return &device{name: p, info: fi, read: zeroReader{}}, nil, true
	case "/dev/random", "/dev/urandom":
		return &device{name: p, info: fi, read: rand.Reader}, nil, true
	}
	if strings.HasPrefix(p, "/dev/") {
		// /dev/stdin and friends are the caller's streams; the shell and
		// the commands handle them before reaching the filesystem.
		return nil, syscall.ENXIO, true
	}
	if isWriteFlag(flag) {
		return nil, syscall.EACCES, true
	}
	// A command in /bin is provided by the sandbox, not a file to read.
	return &device{name: p, info: fi}, nil, true
}

// ReadDir lists name (following symlinks) in native order, with the mount
// points below it included.
func (ns *Namespace) ReadDir(name string) ([]fs.FileInfo, error) {
	return ns.readDir(name, overlayfs.ReadDir)
}

// ReadDirTypes is ReadDir where the entries need only carry their names
// and file types (overlayfs.TypeLister): walks list host directories
// without an lstat per entry.
func (ns *Namespace) ReadDirTypes(name string) ([]fs.FileInfo, error) {
	return ns.readDir(name, overlayfs.ReadDirTypes)
}

func (ns *Namespace) readDir(name string, list func(vfs.FS, string) ([]fs.FileInfo, error)) ([]fs.FileInfo, error) {
	if ns.pace != nil {
		ns.pace()
	}
	// Fast path, as in OpenFile: os.Root follows the links that stay in
	// the volume; anything else takes the guest resolver below.
	if h, rel, ok := ns.fastHost(name); ok {
		if entries, err := list(h, rel); err == nil {
			return entries, nil
		}
	}
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, true)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	switch p {
	case "/bin", "/usr/bin":
		out := make([]fs.FileInfo, 0, len(ns.commandList))
		for _, c := range ns.commandList {
			out = append(out, syntheticInfo{c, 0o755})
		}
		return out, nil
	case "/dev":
		out := make([]fs.FileInfo, 0, len(devices))
		for _, d := range devices {
			fi, _ := ns.synthetic("/dev/" + d)
			out = append(out, fi)
		}
		return out, nil
	case "/dev/fd":
		return []fs.FileInfo{syntheticInfo{"0", fs.ModeDevice | fs.ModeCharDevice | 0o620}, syntheticInfo{"1", fs.ModeDevice | fs.ModeCharDevice | 0o620}, syntheticInfo{"2", fs.ModeDevice | fs.ModeCharDevice | 0o620}}, nil
	}
	m, rel := ns.find(p)
	entries, err := list(m.layer, rel)
	if err != nil {
		return nil, pathErr("open", name, underlying(err))
	}
	if p == "/" || p == "/usr" {
		entries = append(entries, syntheticInfo{"bin", fs.ModeDir | 0o755})
	}
	return ns.withMountPoints(p, entries), nil
}

// withMountPoints adds to the listing of the physical guest directory p
// the mount points inside it that its own layer does not show.
func (ns *Namespace) withMountPoints(p string, entries []fs.FileInfo) []fs.FileInfo {
	m, _ := ns.find(p)
	for i := range ns.mounts {
		mp := ns.mounts[i].guest
		if mp == "/" || mp == p || path.Dir(mp) != p || m.guest == "/" {
			continue
		}
		base := path.Base(mp)
		found := false
		for _, e := range entries {
			if e.Name() == base {
				found = true
				break
			}
		}
		if !found {
			entries = append(entries, syntheticInfo{base, fs.ModeDir | 0o755})
		}
	}
	return entries
}

func (ns *Namespace) Mkdir(name string, perm fs.FileMode) error {
	return ns.makeNode("mkdir", name, func(l overlayfs.Layer, rel string) error {
		return l.Mkdir(rel, perm)
	})
}

// Mkfifo makes a named pipe at name (a final symlink is not followed).
func (ns *Namespace) Mkfifo(name string, perm fs.FileMode) error {
	return ns.makeNode("mkfifo", name, func(l overlayfs.Layer, rel string) error {
		if mk, ok := l.(overlayfs.Mkfifoer); ok {
			return mk.Mkfifo(rel, perm)
		}
		return syscall.EOPNOTSUPP
	})
}

// makeNode makes a new entry at name (a final symlink is not followed)
// with mk, in the layer of the mount that holds it, after refusing an
// existing name and a read-only place; errors name op and name.
func (ns *Namespace) makeNode(op, name string, mk func(l overlayfs.Layer, rel string) error) error {
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, false)
	if err == nil {
		if _, serr := ns.lstatRaw(p); serr == nil {
			err = syscall.EEXIST
		} else {
			err = ns.writableRaw(p)
		}
	}
	if err == nil {
		m, rel := ns.find(p)
		err = underlying(mk(m.layer, rel))
	}
	if err != nil {
		return pathErr(op, name, err)
	}
	return nil
}

func (ns *Namespace) MkdirAll(name string, perm fs.FileMode) error {
	return overlayfs.MkdirAll(ns, name, perm)
}

// isMountPoint reports whether p is where a volume is bound.
func (ns *Namespace) isMountPoint(p string) bool {
	for _, m := range ns.mounts {
		if m.guest == p {
			return true
		}
	}
	return false
}

func (ns *Namespace) Remove(name string) error {
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, false)
	if err == nil {
		if ns.isMountPoint(p) {
			err = syscall.EBUSY
		} else if _, serr := ns.lstatRaw(p); serr != nil {
			err = serr
		} else {
			err = ns.writableRaw(p)
		}
	}
	if err == nil {
		m, rel := ns.find(p)
		err = underlying(m.layer.Remove(rel))
	}
	if err != nil {
		return pathErr("remove", name, err)
	}
	ns.forgetOwner(p)
	return nil
}

func (ns *Namespace) RemoveAll(name string) error { return overlayfs.RemoveAll(ns, name) }

// Rename moves within one mount; across mounts it fails with EXDEV, as a
// rename across filesystems does, and mv copies instead.
func (ns *Namespace) Rename(oldname, newname string) error {
	op, err := overlayfs.ResolveIn(rawNS{ns}, oldname, false)
	var np string
	if err == nil {
		np, err = overlayfs.ResolveIn(rawNS{ns}, newname, false)
	}
	if err == nil {
		switch {
		case ns.isMountPoint(op) || ns.isMountPoint(np):
			err = syscall.EBUSY
		case ns.writableRaw(op) != nil || ns.writableRaw(np) != nil:
			err = syscall.EACCES
		}
	}
	if err == nil {
		om, orel := ns.find(op)
		nm, nrel := ns.find(np)
		if om != nm {
			err = syscall.EXDEV
		} else {
			err = underlying(om.layer.Rename(orel, nrel))
		}
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: err}
	}
	ns.moveOwner(op, np)
	return nil
}

func (ns *Namespace) Chmod(name string, mode fs.FileMode) error {
	return ns.onResolved("chmod", name, func(l overlayfs.Layer, rel string) error { return l.Chmod(rel, mode) })
}

func (ns *Namespace) Chtimes(name string, atime, mtime time.Time) error {
	return ns.onResolved("chtimes", name, func(l overlayfs.Layer, rel string) error { return l.Chtimes(rel, atime, mtime) })
}

func (ns *Namespace) onResolved(op, name string, f func(overlayfs.Layer, string) error) error {
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, true)
	if err == nil {
		if _, ok := ns.synthetic(p); ok {
			err = syscall.EPERM
		}
	}
	if err == nil {
		m, rel := ns.find(p)
		err = underlying(f(m.layer, rel))
	}
	if err != nil {
		return pathErr(op, name, err)
	}
	return nil
}

// Mount describes where a guest path lives.
type Mount struct {
	GuestPath string // the volume's guest path
	HostDir   string // empty for ephemeral volumes and the synthetic root
	Mode      Mode   // empty for the synthetic root
	Rel       string // the path inside the volume, "/"-rooted
}

// MountOf resolves name and reports the volume that holds it.
func (ns *Namespace) MountOf(name string) (Mount, error) {
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, true)
	if err != nil {
		return Mount{}, pathErr("stat", name, err)
	}
	m, rel := ns.find(p)
	if m.vol == nil {
		return Mount{GuestPath: "/", Rel: rel}, nil
	}
	return Mount{GuestPath: m.guest, HostDir: m.vol.HostDir, Mode: m.vol.Mode, Rel: rel}, nil
}

func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: underlying(err)}
}

func underlying(err error) error {
	for {
		switch e := err.(type) {
		case *fs.PathError:
			err = e.Err
		case *os.LinkError:
			err = e.Err
		default:
			return err
		}
	}
}

func isWriteFlag(flag int) bool {
	return flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0
}

// namedFile reports the guest name it was opened with.
type namedFile struct {
	overlayfs.File
	name string
}

func (f *namedFile) Name() string { return f.name }

// OpenInfo passes on the file's open-time stat (see overlayfs.OpenStater).
func (f *namedFile) OpenInfo() fs.FileInfo {
	if o, ok := f.File.(overlayfs.OpenStater); ok {
		return o.OpenInfo()
	}
	return nil
}

// OSFile is the host file under f, if it is one (see overlayfs.OSFiler).
func (f *namedFile) OSFile() *os.File {
	if of, ok := f.File.(overlayfs.OSFiler); ok {
		return of.OSFile()
	}
	return nil
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// device is /dev/null, /dev/zero or /dev/urandom (or a /bin entry, which
// reads as empty).
type device struct {
	name string
	info fs.FileInfo
	read io.Reader // nil: reads give EOF
}

func (d *device) Close() error                           { return nil }
func (d *device) Name() string                           { return d.name }
func (d *device) Stat() (fs.FileInfo, error)             { return d.info, nil }
func (d *device) Sync() error                            { return nil }
func (d *device) Seek(int64, int) (int64, error)         { return 0, nil }
func (d *device) Truncate(int64) error                   { return nil }
func (d *device) Write(p []byte) (int, error)            { return len(p), nil }
func (d *device) WriteAt(p []byte, _ int64) (int, error) { return len(p), nil }
func (d *device) WriteString(s string) (int, error)      { return len(s), nil }
func (d *device) Readdir(int) ([]fs.FileInfo, error)     { return nil, syscall.ENOTDIR }
func (d *device) Readdirnames(int) ([]string, error)     { return nil, syscall.ENOTDIR }
func (d *device) Read(p []byte) (int, error) {
	if d.read == nil {
		return 0, io.EOF
	}
	return d.read.Read(p)
}
func (d *device) ReadAt(p []byte, _ int64) (int, error) { return d.Read(p) }
