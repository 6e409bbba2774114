package tar

import (
	"archive/tar"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/archive"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/overlayfs"
)

var errNotDir = syscall.ENOTDIR

// delayedLink is a symbolic link whose target could lead outside the
// extraction directory: a placeholder file stands in for it until every
// member is extracted.
type delayedLink struct {
	abs, name, target string
	valid             bool
}

type delayedDir struct {
	abs   string
	mode  fs.FileMode
	mtime time.Time
}

type extractor struct {
	t            *tarCmd
	c            *builtins.Call
	umask        fs.FileMode
	now          time.Time
	dirs         []delayedDir
	links        []*delayedLink
	placeholders map[string]*delayedLink
}

func newExtractor(t *tarCmd) *extractor {
	return &extractor{t: t, c: t.c, umask: t.c.Umask, now: time.Now(), placeholders: map[string]*delayedLink{}}
}

// abs is the absolute guest path of a member name under dir.
func (x *extractor) abs(dir, rel string) string {
	if !x.t.absolute {
		rel = path.Clean(rel)
	}
	return path.Clean(x.c.Abs(x.t.path(dir, rel)))
}

// unsafeLink reports whether a symbolic link target could lead outside
// the directory it is extracted in.
func (x *extractor) unsafeLink(target string) bool {
	return !x.t.absolute && (path.IsAbs(target) || archive.ContainsDotDot(target))
}

func (x *extractor) extract(hdr *tar.Header, dir, name, link string, r io.Reader) {
	abs := x.abs(dir, name)
	if pl, ok := x.placeholders[abs]; ok {
		pl.valid = false
		delete(x.placeholders, abs)
	}
	ename := archive.Escape(name)
	switch hdr.Typeflag {
	case tar.TypeReg, typeOldReg, tar.TypeCont, tar.TypeGNUSparse:
		if hdr.Typeflag == typeOldReg && strings.HasSuffix(hdr.Name, "/") {
			x.dir(hdr, ename, abs)
			return
		}
		x.file(hdr, ename, abs, r)
	case tar.TypeDir:
		x.dir(hdr, ename, abs)
	case tar.TypeSymlink:
		x.symlink(hdr, ename, abs, hdr.Linkname)
	case tar.TypeLink:
		x.hardlink(hdr, ename, abs, link, x.abs(dir, link))
	case tar.TypeFifo:
		x.fifo(hdr, ename, abs)
	case tar.TypeChar, tar.TypeBlock:
		if x.prepare(ename, abs, "mknod", false) {
			x.t.fail("%s: Cannot mknod: Operation not permitted", ename)
		}
	default:
		x.t.errorf("%s: Unknown file type '%c', extracted as normal file", ename, hdr.Typeflag)
		x.file(hdr, ename, abs, r)
	}
}

// prepare clears the way for a new member at abs, as GNU tar's default
// (or -k, --skip-old-files, --overwrite) treatment of existing files.
// It reports whether extraction should go on.
func (x *extractor) prepare(name, abs, op string, isDir bool) bool {
	fi, err := x.lstat(abs)
	if err != nil {
		return true
	}
	if isDir && fi.IsDir() {
		return true
	}
	switch x.t.old {
	case oldKeep:
		if isDir {
			return false
		}
		x.t.fail("%s: Cannot %s: File exists", name, op)
		return false
	case oldSkip:
		return false
	}
	if isDir && fi.Mode()&fs.ModeSymlink != 0 && x.t.keepDirLink {
		if st, err := x.c.FS.Stat(abs); err == nil && st.IsDir() {
			return false
		}
	}
	if err := x.c.FS.Remove(abs); err != nil {
		if fi.IsDir() {
			x.t.fail("%s: Cannot %s: File exists", name, op)
		} else {
			x.t.fail("%s: Cannot unlink: %s", name, builtins.ErrText(err))
		}
		return false
	}
	return true
}

// mkParents creates the missing directories above abs.
func (x *extractor) mkParents(abs string) error {
	return x.c.FS.MkdirAll(path.Dir(abs), 0o777&^x.umask)
}

// create makes a new file, creating missing parent directories.
func (x *extractor) create(abs string, perm fs.FileMode) (io.WriteCloser, error) {
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	f, err := x.c.FS.OpenFile(abs, flag, perm)
	if errors.Is(err, fs.ErrNotExist) {
		if merr := x.mkParents(abs); merr != nil {
			return nil, merr
		}
		f, err = x.c.FS.OpenFile(abs, flag, perm)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (x *extractor) mode(hdr *tar.Header) fs.FileMode {
	m := modes.FromPerm(uint32(hdr.Mode))
	if !x.t.samePerms {
		m &^= x.umask
	}
	return m
}

func (x *extractor) setTimes(abs string, mtime time.Time) {
	if x.t.touch {
		return
	}
	x.c.FS.Chtimes(abs, x.now, mtime)
}

// fifo makes a named pipe member, as GNU tar does (mkfifo needs no
// privilege, unlike device nodes).
func (x *extractor) fifo(hdr *tar.Header, name, abs string) {
	if !x.prepare(name, abs, "mkfifo", false) {
		return
	}
	mk, ok := x.c.FS.(overlayfs.Mkfifoer)
	if !ok {
		x.t.fail("%s: Cannot mkfifo: Operation not supported", name)
		return
	}
	err := mk.Mkfifo(abs, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if merr := x.mkParents(abs); merr == nil {
			err = mk.Mkfifo(abs, 0o600)
		}
	}
	if err != nil {
		x.t.fail("%s: Cannot mkfifo: %s", name, builtins.ErrText(err))
		return
	}
	x.c.FS.Chmod(abs, x.mode(hdr))
	x.setTimes(abs, hdr.ModTime)
}

func (x *extractor) file(hdr *tar.Header, name, abs string, r io.Reader) {
	if !x.prepare(name, abs, "open", false) {
		return
	}
	f, err := x.create(abs, 0o600)
	if err != nil {
		x.t.fail("%s: Cannot open: %s", name, builtins.ErrText(err))
		return
	}
	_, err = io.Copy(f, r)
	cerr := f.Close()
	if err == nil {
		err = cerr
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
			x.t.fail("%s: Cannot write: %s", name, builtins.ErrText(err))
		}
		// A read error is reported by the reading loop.
	}
	x.c.FS.Chmod(abs, x.mode(hdr))
	x.setTimes(abs, hdr.ModTime)
}

func (x *extractor) dir(hdr *tar.Header, name, abs string) {
	if !x.prepare(name, abs, "mkdir", true) {
		return
	}
	mode := x.mode(hdr)
	if fi, err := x.lstat(abs); err != nil || !fi.IsDir() {
		perm := (mode | 0o700) & fs.ModePerm
		err := x.c.FS.Mkdir(abs, perm)
		if errors.Is(err, fs.ErrNotExist) {
			if merr := x.mkParents(abs); merr == nil {
				err = x.c.FS.Mkdir(abs, perm)
			} else {
				err = merr
			}
		}
		if err != nil {
			x.t.fail("%s: Cannot mkdir: %s", strings.TrimSuffix(name, "/"), builtins.ErrText(err))
			return
		}
	}
	x.dirs = append(x.dirs, delayedDir{abs, mode, hdr.ModTime})
}

func (x *extractor) symlink(hdr *tar.Header, name, abs, target string) {
	op := "create symlink to " + x.t.q(target)
	if !x.prepare(name, abs, op, false) {
		return
	}
	if x.unsafeLink(target) {
		x.placeholder(name, abs, target)
		return
	}
	err := x.c.FS.SymlinkIfPossible(target, abs)
	if errors.Is(err, fs.ErrNotExist) {
		if merr := x.mkParents(abs); merr == nil {
			err = x.c.FS.SymlinkIfPossible(target, abs)
		} else {
			err = merr
		}
	}
	if err != nil {
		x.t.fail("%s: Cannot %s: %s", name, op, builtins.ErrText(err))
	}
}

// placeholder creates the empty file that stands for a delayed link.
func (x *extractor) placeholder(name, abs, target string) {
	f, err := x.create(abs, 0)
	if err != nil {
		x.t.fail("%s: Cannot open: %s", name, builtins.ErrText(err))
		return
	}
	f.Close()
	l := &delayedLink{abs: abs, name: name, target: target, valid: true}
	x.links = append(x.links, l)
	x.placeholders[abs] = l
}

func (x *extractor) hardlink(hdr *tar.Header, name, abs, link, linkAbs string) {
	op := "hard link to " + x.t.q(link)
	if pl, ok := x.placeholders[linkAbs]; ok && pl.valid {
		if x.prepare(name, abs, op, false) {
			x.placeholder(name, abs, pl.target)
		}
		return
	}
	fi, err := x.lstat(linkAbs)
	if err != nil {
		x.t.fail("%s: Cannot %s: %s", name, op, builtins.ErrText(err))
		return
	}
	if linkAbs == abs {
		return
	}
	switch {
	case fi.IsDir():
		x.t.fail("%s: Cannot %s: Operation not permitted", name, op)
	default:
		if !x.prepare(name, abs, op, false) {
			return
		}
		err := x.c.Link(linkAbs, abs)
		if errors.Is(err, fs.ErrNotExist) {
			if merr := x.mkParents(abs); merr == nil {
				err = x.c.Link(linkAbs, abs)
			}
		}
		if err != nil {
			x.t.fail("%s: Cannot %s: %s", name, op, builtins.ErrText(err))
		}
	}
}

// finish turns placeholders into their links and gives directories
// their final modes and times, deepest last-extracted first.
func (x *extractor) finish() {
	for _, l := range x.links {
		if !l.valid {
			continue
		}
		fi, err := x.lstat(l.abs)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != 0 {
			continue
		}
		if err := x.c.FS.Remove(l.abs); err != nil {
			x.t.fail("%s: Cannot unlink: %s", l.name, builtins.ErrText(err))
			continue
		}
		if err := x.c.FS.SymlinkIfPossible(l.target, l.abs); err != nil {
			x.t.fail("%s: Cannot create symlink to %s: %s", l.name, x.t.q(l.target), builtins.ErrText(err))
		}
	}
	last := map[string]int{}
	for i, d := range x.dirs {
		last[d.abs] = i
	}
	for i := len(x.dirs) - 1; i >= 0; i-- {
		d := x.dirs[i]
		if last[d.abs] != i {
			continue
		}
		x.c.FS.Chmod(d.abs, d.mode)
		x.setTimes(d.abs, d.mtime)
	}
}

func (x *extractor) lstat(abs string) (fs.FileInfo, error) {
	fi, _, err := x.c.FS.LstatIfPossible(abs)
	return fi, err
}
