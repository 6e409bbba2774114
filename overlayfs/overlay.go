package overlayfs

import (
	"io"
	"io/fs"
	"os"
	"path"
	"sync"
	"syscall"
	"time"

	"github.com/bashbox/bashbox/vfs"
)

// Overlay is a copy-on-write view of a read-only base layer: reads fall
// through to the base, writes land in an in-memory upper layer, and removals
// of base entries are recorded as whiteouts. The base is never written.
type Overlay struct {
	base  Layer
	upper *MemFs

	mu sync.RWMutex
	// whiteouts hides the base at a path and everything below it. A path
	// both whited out and present in the upper layer is an opaque upper
	// directory (or a file that replaced a base entry).
	whiteouts map[string]bool
	// origins records renames for change sets: a path of the upper layer
	// that was moved there maps to the base path it came from (entries
	// below a moved directory inherit it; see changes.go).
	origins map[string]string
}

// NewOverlay stacks upper over base.
func NewOverlay(base Layer, upper *MemFs) *Overlay {
	// The upper root stands for the base root: same mode and mtime.
	if fi, _, err := base.LstatIfPossible("/"); err == nil {
		upper.Chmod("/", fi.Mode())
		upper.Chtimes("/", fi.ModTime(), fi.ModTime())
	}
	return &Overlay{base: base, upper: upper, whiteouts: map[string]bool{}, origins: map[string]string{}}
}

func (o *Overlay) Name() string { return "overlay" }

// hidden reports whether the base is whited out at name or above it.
func (o *Overlay) hidden(name string) bool {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if len(o.whiteouts) == 0 {
		return false
	}
	for p := name; ; p = path.Dir(p) {
		if o.whiteouts[p] {
			return true
		}
		if p == "/" {
			return false
		}
	}
}

func (o *Overlay) whiteout(name string) {
	o.mu.Lock()
	o.whiteouts[name] = true
	o.mu.Unlock()
}

// inUpper reports whether the upper layer holds name itself.
func (o *Overlay) inUpper(name string) bool {
	_, _, err := o.upper.LstatIfPossible(name)
	return err == nil
}

func (o *Overlay) baseLstat(name string) (fs.FileInfo, error) {
	if o.hidden(name) {
		return nil, pathErr("lstat", name, syscall.ENOENT)
	}
	fi, _, err := o.base.LstatIfPossible(name)
	return fi, err
}

func (o *Overlay) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	name = Clean(name)
	if fi, _, err := o.upper.LstatIfPossible(name); err == nil {
		return fi, true, nil
	}
	fi, err := o.baseLstat(name)
	if err != nil {
		return nil, true, pathErr("lstat", name, underlying(err))
	}
	return fi, true, nil
}

func (o *Overlay) Stat(name string) (fs.FileInfo, error) {
	resolved, err := ResolveIn(o, name, true)
	if err != nil {
		return nil, pathErr("stat", Clean(name), err)
	}
	fi, _, err := o.LstatIfPossible(resolved)
	if err != nil {
		return nil, pathErr("stat", Clean(name), underlying(err))
	}
	return RenamedInfo(fi, path.Base(Clean(name))), nil
}

func (o *Overlay) ReadlinkIfPossible(name string) (string, error) {
	name = Clean(name)
	if o.inUpper(name) {
		return o.upper.ReadlinkIfPossible(name)
	}
	if o.hidden(name) {
		return "", pathErr("readlink", name, syscall.ENOENT)
	}
	return o.base.ReadlinkIfPossible(name)
}

// copyUpDir makes sure dir exists as a directory in the upper layer, with
// the base's mode and mtime, creating its ancestors the same way.
func (o *Overlay) copyUpDir(dir string) error {
	if fi, _, err := o.upper.LstatIfPossible(dir); err == nil {
		if !fi.IsDir() {
			return pathErr("mkdir", dir, syscall.ENOTDIR)
		}
		return nil
	}
	bi, err := o.baseLstat(dir)
	if err != nil {
		return pathErr("open", dir, underlying(err))
	}
	if !bi.IsDir() {
		return pathErr("open", dir, syscall.ENOTDIR)
	}
	if err := o.copyUpDir(path.Dir(dir)); err != nil {
		return err
	}
	if err := o.upper.Mkdir(dir, bi.Mode().Perm()); err != nil && !os.IsExist(err) {
		return err
	}
	return o.upper.Chtimes(dir, bi.ModTime(), bi.ModTime())
}

// copyUp brings name (file, symlink or, with its whole subtree, directory)
// into the upper layer unless it is there already.
func (o *Overlay) copyUp(name string, withData bool) error {
	if o.inUpper(name) {
		return nil
	}
	bi, err := o.baseLstat(name)
	if err != nil {
		return err
	}
	if err := o.copyUpDir(path.Dir(name)); err != nil {
		return err
	}
	switch {
	case bi.IsDir():
		if err := o.copyUpDir(name); err != nil {
			return err
		}
		if !withData {
			return nil
		}
		entries, err := o.ReadDir(name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := o.copyUp(path.Join(name, e.Name()), true); err != nil {
				return err
			}
		}
		return nil
	case bi.Mode()&fs.ModeNamedPipe != 0:
		// A host FIFO is never opened: its copy is a FIFO of the sandbox.
		if err := o.upper.Mkfifo(name, bi.Mode().Perm()); err != nil {
			return err
		}
	case bi.Mode()&fs.ModeSymlink != 0:
		target, err := o.base.ReadlinkIfPossible(name)
		if err != nil {
			return err
		}
		if err := o.upper.SymlinkIfPossible(target, name); err != nil {
			return err
		}
	default:
		dst, err := o.upper.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, bi.Mode().Perm())
		if err != nil {
			return err
		}
		if withData {
			src, err := o.base.Open(name)
			if err != nil {
				dst.Close()
				return err
			}
			_, err = io.Copy(dst, src)
			src.Close()
			if err != nil {
				dst.Close()
				return err
			}
		}
		dst.Close()
		if err := o.upper.Chmod(name, bi.Mode()); err != nil {
			return err
		}
	}
	return o.upper.Chtimes(name, bi.ModTime(), bi.ModTime())
}

// copyUpTree brings into the upper layer every entry below dir that still
// shows from the base. A directory copied up earlier for a change below it
// holds only that change, and a rename moves the upper directory alone:
// without this, `touch d/new; mv d g` would leave g holding only new.
func (o *Overlay) copyUpTree(dir string) error {
	entries, err := o.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		if !e.IsDir() {
			if err := o.copyUp(p, true); err != nil {
				return err
			}
			continue
		}
		if err := o.copyUpDir(p); err != nil {
			return err
		}
		if err := o.copyUpTree(p); err != nil {
			return err
		}
	}
	return nil
}

func (o *Overlay) Create(name string) (File, error) {
	return o.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (o *Overlay) Open(name string) (File, error) { return o.OpenFile(name, os.O_RDONLY, 0) }

func (o *Overlay) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	name = Clean(name)
	fi, _, err := o.LstatIfPossible(name)
	if err == nil && fi.IsDir() {
		if isWrite(flag) {
			return nil, pathErr("open", name, syscall.EISDIR)
		}
		entries, err := o.ReadDir(name)
		if err != nil {
			return nil, err
		}
		return NewDirFile(name, fi, entries), nil
	}
	if !isWrite(flag) || o.inUpper(name) {
		if o.inUpper(name) {
			return o.upper.OpenFile(name, flag, perm)
		}
		if o.hidden(name) {
			return nil, pathErr("open", name, syscall.ENOENT)
		}
		return o.base.OpenFile(name, flag, perm)
	}
	if err == nil {
		if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
			return nil, pathErr("open", name, syscall.EEXIST)
		}
		if err := o.copyUp(name, flag&os.O_TRUNC == 0); err != nil {
			return nil, err
		}
		return o.upper.OpenFile(name, flag, perm)
	}
	if flag&os.O_CREATE == 0 {
		return nil, pathErr("open", name, syscall.ENOENT)
	}
	if err := o.copyUpDir(path.Dir(name)); err != nil {
		return nil, pathErr("open", name, underlying(err))
	}
	return o.upper.OpenFile(name, flag, perm)
}

// ReadDir merges the listing: base entries in the base's order (minus
// whiteouts, with upper replacements in place), then upper-only entries.
func (o *Overlay) ReadDir(name string) ([]fs.FileInfo, error) { return o.readDir(name, ReadDir) }

// ReadDirTypes is ReadDir with the base listed by type only (TypeLister).
func (o *Overlay) ReadDirTypes(name string) ([]fs.FileInfo, error) {
	return o.readDir(name, ReadDirTypes)
}

func (o *Overlay) readDir(name string, listBase func(vfs.FS, string) ([]fs.FileInfo, error)) ([]fs.FileInfo, error) {
	name = Clean(name)
	upperEntries, uerr := o.upper.ReadDir(name)
	if o.hidden(name) {
		if uerr != nil {
			return nil, pathErr("open", name, underlying(uerr))
		}
		return upperEntries, nil
	}
	baseEntries, berr := listBase(o.base, name)
	if berr != nil {
		if uerr != nil {
			return nil, berr
		}
		return upperEntries, nil
	}
	if uerr != nil {
		if !os.IsNotExist(uerr) {
			return nil, uerr
		}
		// Fast path: nothing of this directory was changed.
		o.mu.RLock()
		n := len(o.whiteouts)
		o.mu.RUnlock()
		if n == 0 {
			return baseEntries, nil
		}
	}
	upperByName := make(map[string]fs.FileInfo, len(upperEntries))
	for _, e := range upperEntries {
		upperByName[e.Name()] = e
	}
	merged := make([]fs.FileInfo, 0, len(baseEntries)+len(upperEntries))
	for _, e := range baseEntries {
		if u, ok := upperByName[e.Name()]; ok {
			merged = append(merged, u)
			delete(upperByName, e.Name())
			continue
		}
		if o.hidden(path.Join(name, e.Name())) {
			continue
		}
		merged = append(merged, e)
	}
	for _, e := range upperEntries {
		if _, ok := upperByName[e.Name()]; ok {
			merged = append(merged, e)
		}
	}
	return merged, nil
}

func (o *Overlay) Mkdir(name string, perm fs.FileMode) error {
	name, err := o.newEntry("mkdir", name)
	if err != nil {
		return err
	}
	return o.upper.Mkdir(name, perm)
}

// newEntry readies the upper layer for a new entry at name: it refuses a
// name that exists and copies up the parent directory. It returns the
// cleaned name; errors name op.
func (o *Overlay) newEntry(op, name string) (string, error) {
	name = Clean(name)
	if _, _, err := o.LstatIfPossible(name); err == nil {
		return name, pathErr(op, name, syscall.EEXIST)
	}
	if err := o.copyUpDir(path.Dir(name)); err != nil {
		return name, pathErr(op, name, underlying(err))
	}
	return name, nil
}

func (o *Overlay) MkdirAll(name string, perm fs.FileMode) error { return MkdirAll(o, name, perm) }
func (o *Overlay) RemoveAll(name string) error                  { return RemoveAll(o, name) }

func (o *Overlay) Remove(name string) error {
	name = Clean(name)
	fi, _, err := o.LstatIfPossible(name)
	if err != nil {
		return pathErr("remove", name, underlying(err))
	}
	if fi.IsDir() {
		entries, err := o.ReadDir(name)
		if err != nil {
			return err
		}
		if len(entries) > 0 {
			return pathErr("remove", name, syscall.ENOTEMPTY)
		}
	}
	if o.inUpper(name) {
		if err := o.upper.RemoveAll(name); err != nil {
			return err
		}
	}
	if bi, _ := o.baseLstat(name); bi != nil {
		o.whiteout(name)
	}
	o.forgetOrigin(name)
	if name != "/" {
		o.touchDir(path.Dir(name))
	}
	return nil
}

// touchDir records a change of dir's contents in its mtime.
func (o *Overlay) touchDir(dir string) {
	if o.copyUpDir(dir) == nil {
		now := time.Now()
		o.upper.Chtimes(dir, now, now)
	}
}

func (o *Overlay) Rename(oldname, newname string) error {
	oldname, newname = Clean(oldname), Clean(newname)
	linkErr := func(err error) error {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: underlying(err)}
	}
	if oldname == newname {
		return nil
	}
	if under(newname, oldname) {
		return linkErr(syscall.EINVAL)
	}
	ofi, _, err := o.LstatIfPossible(oldname)
	if err != nil {
		return linkErr(err)
	}
	if nfi, _, err := o.LstatIfPossible(newname); err == nil {
		switch {
		case nfi.IsDir() && !ofi.IsDir():
			return linkErr(syscall.EISDIR)
		case !nfi.IsDir() && ofi.IsDir():
			return linkErr(syscall.ENOTDIR)
		}
		if err := o.Remove(newname); err != nil {
			return linkErr(err)
		}
	}
	// A directory already in the upper layer may hold only part of its
	// tree there (copyUp below copies nothing then); one not yet there
	// has no entry below it there either, and copyUp copies it whole.
	partial := ofi.IsDir() && o.inUpper(oldname)
	if err := o.copyUp(oldname, true); err != nil {
		return linkErr(err)
	}
	if partial {
		if err := o.copyUpTree(oldname); err != nil {
			return linkErr(err)
		}
	}
	if err := o.copyUpDir(path.Dir(newname)); err != nil {
		return linkErr(err)
	}
	src := o.originOf(oldname)
	if err := o.upper.Rename(oldname, newname); err != nil {
		return err
	}
	o.moveOrigin(oldname, newname, src, ofi.IsDir())
	if bi, _ := o.baseLstat(oldname); bi != nil {
		o.whiteout(oldname)
	}
	if bi, _ := o.baseLstat(newname); bi != nil {
		// The moved tree replaces whatever the base had there.
		o.whiteout(newname)
	}
	return nil
}

func (o *Overlay) Chmod(name string, mode fs.FileMode) error {
	name = Clean(name)
	if err := o.copyUp(name, true); err != nil {
		return pathErr("chmod", name, underlying(err))
	}
	return o.upper.Chmod(name, mode)
}

func (o *Overlay) Chown(name string, uid, gid int) error {
	_, _, err := o.LstatIfPossible(name)
	return err
}

func (o *Overlay) Chtimes(name string, atime, mtime time.Time) error {
	name = Clean(name)
	if err := o.copyUp(name, true); err != nil {
		return pathErr("chtimes", name, underlying(err))
	}
	return o.upper.Chtimes(name, atime, mtime)
}

// Link copies oldname up (an overlay links in its upper layer, as the
// kernel's does) and links it there.
func (o *Overlay) Link(oldname, newname string) error {
	oldname, newname = Clean(oldname), Clean(newname)
	lerr := func(err error) error {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: underlying(err)}
	}
	if _, _, err := o.LstatIfPossible(newname); err == nil {
		return lerr(syscall.EEXIST)
	}
	if err := o.copyUp(oldname, true); err != nil {
		return lerr(err)
	}
	if err := o.copyUpDir(path.Dir(newname)); err != nil {
		return lerr(err)
	}
	return o.upper.Link(oldname, newname)
}

func (o *Overlay) SymlinkIfPossible(target, name string) error {
	name = Clean(name)
	if _, _, err := o.LstatIfPossible(name); err == nil {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: syscall.EEXIST}
	}
	if err := o.copyUpDir(path.Dir(name)); err != nil {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: underlying(err)}
	}
	return o.upper.SymlinkIfPossible(target, name)
}

// Base returns the base layer and whether nothing has been changed over
// it yet, in which case reads may go to the base directly.
func (o *Overlay) Base() (Layer, bool) {
	o.mu.RLock()
	n := len(o.whiteouts)
	o.mu.RUnlock()
	if n > 0 {
		return o.base, false
	}
	entries, err := o.upper.ReadDir("/")
	return o.base, err == nil && len(entries) == 0
}
