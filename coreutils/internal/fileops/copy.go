package fileops

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/overlayfs"
)

// Deref says when the copier follows symlinks in sources.
type Deref int

const (
	DerefNever   Deref = iota // -P
	DerefAlways               // -L
	DerefCmdLine              // -H: command-line arguments only
)

// Interactive is what to do when a destination exists.
type Interactive int

const (
	IUnspecified Interactive = iota
	IAlwaysYes
	IAlwaysNo // -n
	IAskUser  // -i
)

// Copier copies files and trees over the sandbox filesystem with GNU cp's
// semantics. mv uses it (MoveMode) when a rename crosses volumes, and
// install for its copies.
type Copier struct {
	C      *builtins.Call
	Ctx    context.Context
	Q      quote.Quoter
	Out    *bufio.Writer // verbose output
	Prompt *Prompter

	Recursive     bool
	Deref         Deref
	PreserveMode  bool
	PreserveTimes bool
	Interactive   Interactive
	// UnlinkAfterFailedOpen is cp -f: remove a destination that cannot be
	// opened for writing and try again.
	UnlinkAfterFailedOpen bool
	RemoveDestination     bool
	Update                bool // -u: skip destinations not older than the source
	Verbose               bool
	Symlink               bool // -s: make symlinks instead of copies
	Link                  bool // -l: make hard links instead of copies
	// MoveMode is mv copying across volumes: verbose lines say "created
	// directory" and "copied", and symlinks and modes are kept as they are.
	MoveMode bool
	// Mode, when set, is the mode of copied regular files (install -m).
	Mode *fs.FileMode
	// Backup keeps a destination about to be replaced (-b).
	Backup Backup

	topDst               string
	topSrcName, topDstNm string
	ops                  int
	buf                  []byte   // copy buffer, shared by every file
	backupName           string   // the backup made for the current file
	ancestors            []string // physical paths of the directories being copied
}

func (cp *Copier) errorf(format string, args ...any) {
	cp.C.Errorf(format, args...)
}

func (cp *Copier) verbose(format string, args ...any) {
	if cp.Out != nil {
		fmt.Fprintf(cp.Out, format, args...)
	}
}

// Copy copies src (a command-line operand) to dst and reports success.
func (cp *Copier) Copy(src, dst string) bool {
	cp.topDst = ""
	cp.topSrcName, cp.topDstNm = src, dst
	return cp.copy(src, dst, true)
}

func (cp *Copier) canceled() bool {
	cp.ops++
	return cp.ops&255 == 0 && cp.Ctx != nil && cp.Ctx.Err() != nil
}

func (cp *Copier) copy(src, dst string, cmdline bool) bool {
	c, q := cp.C, cp.Q
	if cp.canceled() {
		return false
	}
	follow := cp.Deref == DerefAlways || cp.Deref == DerefCmdLine && cmdline
	var sfi fs.FileInfo
	var err error
	if follow {
		sfi, err = Stat(c, src)
	} else {
		sfi, err = Lstat(c, src)
	}
	if err != nil {
		cp.errorf("cannot stat %s: %s", q.AF(src), builtins.ErrText(err))
		return false
	}
	srcDir := sfi.IsDir()
	srcLink := sfi.Mode()&fs.ModeSymlink != 0
	if srcDir && !cp.Recursive {
		cp.errorf("-r not specified; omitting directory %s", q.AF(src))
		return false
	}
	if srcDir {
		phys := Physical(c.FS, c.Dir, src, true)
		if cp.topDst != "" && phys == cp.topDst {
			cp.errorf("cannot copy a directory, %s, into itself, %s", q.AF(cp.topSrcName), q.AF(cp.topDstNm))
			return false
		}
		for _, a := range cp.ancestors {
			if a == phys {
				// Only a followed symlink can lead back up the tree.
				cp.errorf("cannot copy cyclic symbolic link %s", q.AF(src))
				return false
			}
		}
		cp.ancestors = append(cp.ancestors, phys)
		defer func() { cp.ancestors = cp.ancestors[:len(cp.ancestors)-1] }()
	}

	useLstat := !sfi.Mode().IsRegular() || cp.MoveMode || cp.Symlink || cp.RemoveDestination
	dfi, err := meta.Stat(c, dst, !useLstat)
	dstExists := err == nil
	if err != nil && !builtins.IsNotExist(err) {
		cp.errorf("cannot stat %s: %s", q.AF(dst), builtins.ErrText(err))
		return false
	}
	if dstExists {
		if cp.sameFile(src, sfi, follow, dst, dfi, !useLstat) {
			cp.errorf("%s and %s are the same file", q.AF(src), q.AF(dst))
			return false
		}
		if !srcDir {
			if cp.Update && !dfi.ModTime().Before(sfi.ModTime()) {
				return true
			}
			switch cp.Interactive {
			case IAlwaysNo:
				return true
			case IAskUser:
				if !dfi.IsDir() && !cp.Prompt.Ask("overwrite %s? ", q.AF(dst)) {
					return true
				}
			}
		}
		if dfi.IsDir() && !srcDir {
			cp.errorf("cannot overwrite directory %s with non-directory", q.AF(dst))
			return false
		}
		if !dfi.IsDir() && srcDir {
			cp.errorf("cannot overwrite non-directory %s with directory %s", q.AF(dst), q.AF(src))
			return false
		}
		if cp.Backup.Type != BackupNone && !dfi.IsDir() {
			name, err := cp.Backup.Make(c, dst)
			if err != nil {
				cp.errorf("cannot backup %s: %s", q.AF(dst), builtins.ErrText(err))
				return false
			}
			cp.backupName = name
			defer func() { cp.backupName = "" }()
			dstExists = false
		}
	}

	switch {
	case srcDir:
		return cp.copyDir(src, dst, sfi, dstExists, cmdline)
	case srcLink:
		return cp.copySymlink(src, dst, sfi, dstExists)
	case cp.Symlink:
		return cp.makeSymlink(src, dst, dstExists)
	case cp.Link:
		return cp.makeHardLink(src, dst, follow, dstExists)
	case sfi.Mode()&fs.ModeNamedPipe != 0 && cp.Recursive:
		return cp.copyFifo(src, dst, sfi, dstExists)
	}
	return cp.copyFile(src, dst, sfi, dstExists)
}

// sameFile reports whether src and dst name the same file: the same
// physical path, or two names of one file with several links.
func (cp *Copier) sameFile(src string, sfi fs.FileInfo, followSrc bool, dst string, dfi fs.FileInfo, followDst bool) bool {
	fsys, dir := cp.C.FS, cp.C.Dir
	ps := Physical(fsys, dir, src, followSrc)
	pd := Physical(fsys, dir, dst, followDst)
	if ps == pd {
		return true
	}
	if SameLinkedFile(sfi, dfi) {
		return true // two hard links of one file
	}
	if cp.MoveMode {
		return false
	}
	srcLink := sfi.Mode()&fs.ModeSymlink != 0
	dstLink := dfi.Mode()&fs.ModeSymlink != 0
	if srcLink && !dstLink {
		// cp -P link file, where link points to file.
		return Physical(fsys, dir, src, true) == Physical(fsys, dir, dst, true)
	}
	return false
}

func (cp *Copier) copyDir(src, dst string, sfi fs.FileInfo, dstExists, cmdline bool) bool {
	c, q := cp.C, cp.Q
	perm := modes.Perm(sfi.Mode())
	created := false
	if !dstExists {
		if err := c.FS.Mkdir(c.Abs(dst), modes.FromPerm(perm&^uint32(c.Umask)|0o700)); err != nil {
			cp.errorf("cannot create directory %s: %s", q.AF(dst), builtins.ErrText(err))
			return false
		}
		created = true
		if cp.topDst == "" {
			cp.topDst = Physical(c.FS, c.Dir, dst, true)
		}
		if cp.Verbose {
			if cp.MoveMode {
				cp.verbose("created directory %s\n", q.AF(dst))
			} else {
				cp.verbose("%s -> %s\n", q.AF(src), q.AF(dst))
			}
		}
	}
	entries, err := c.ReadDir(src)
	if err != nil {
		cp.errorf("cannot access %s: %s", q.AF(src), builtins.ErrText(err))
		return false
	}
	sortByInode(entries)
	ok := true
	for _, e := range entries {
		if cp.Ctx != nil && cp.Ctx.Err() != nil {
			return false
		}
		name := e.Name()
		if !cp.copy(joinPath(src, name), joinPath(dst, name), false) {
			ok = false
		}
	}
	switch {
	case cp.PreserveMode || cp.MoveMode:
		cp.chmod(dst, perm)
	case created:
		if want := perm &^ uint32(c.Umask); want != perm&^uint32(c.Umask)|0o700 {
			cp.chmod(dst, want)
		}
	}
	if cp.PreserveTimes || cp.MoveMode {
		cp.chtimes(dst, sfi)
	}
	return ok
}

func (cp *Copier) chmod(name string, bits uint32) {
	if err := cp.C.FS.Chmod(cp.C.Abs(name), modes.FromPerm(bits)); err != nil {
		cp.errorf("preserving permissions for %s: %s", cp.Q.AF(name), builtins.ErrText(err))
	}
}

func (cp *Copier) chtimes(name string, sfi fs.FileInfo) {
	if err := cp.C.FS.Chtimes(cp.C.Abs(name), sfi.ModTime(), sfi.ModTime()); err != nil {
		cp.errorf("preserving times for %s: %s", cp.Q.AF(name), builtins.ErrText(err))
	}
}

func (cp *Copier) copySymlink(src, dst string, sfi fs.FileInfo, dstExists bool) bool {
	c, q := cp.C, cp.Q
	target, err := c.FS.ReadlinkIfPossible(c.Abs(src))
	if err != nil {
		cp.errorf("cannot read symbolic link %s: %s", q.AF(src), builtins.ErrText(err))
		return false
	}
	if dstExists {
		if err := c.FS.Remove(c.Abs(dst)); err != nil {
			cp.errorf("cannot remove %s: %s", q.AF(dst), builtins.ErrText(err))
			return false
		}
	}
	if err := c.FS.SymlinkIfPossible(target, c.Abs(dst)); err != nil {
		cp.errorf("cannot create symbolic link %s: %s", q.AF(dst), builtins.ErrText(err))
		return false
	}
	cp.reportCopied(src, dst)
	return true
}

func (cp *Copier) reportCopied(src, dst string) {
	if !cp.Verbose {
		return
	}
	backup := ""
	if cp.backupName != "" {
		backup = " (backup: " + cp.Q.AF(cp.backupName) + ")"
	}
	if cp.MoveMode {
		cp.verbose("copied %s -> %s%s\n", cp.Q.AF(src), cp.Q.AF(dst), backup)
	} else {
		cp.verbose("%s -> %s%s\n", cp.Q.AF(src), cp.Q.AF(dst), backup)
	}
}

// makeSymlink is cp -s.
func (cp *Copier) makeSymlink(src, dst string, dstExists bool) bool {
	c, q := cp.C, cp.Q
	if !strings.HasPrefix(src, "/") {
		parent := path.Dir(strings.TrimRight(dst, "/"))
		if parent != "." && Physical(c.FS, c.Dir, parent, true) != Physical(c.FS, c.Dir, ".", true) {
			cp.errorf("%s: can make relative symbolic links only in current directory", q.F(dst))
			return false
		}
	}
	if dstExists && (cp.UnlinkAfterFailedOpen || cp.RemoveDestination) {
		if err := c.FS.Remove(c.Abs(dst)); err != nil {
			cp.errorf("cannot remove %s: %s", q.AF(dst), builtins.ErrText(err))
			return false
		}
	}
	if err := c.FS.SymlinkIfPossible(src, c.Abs(dst)); err != nil {
		cp.errorf("cannot create symbolic link %s to %s: %s", q.AF(dst), q.AF(src), builtins.ErrText(err))
		return false
	}
	cp.reportCopied(src, dst)
	return true
}

// makeHardLink is cp -l: dst becomes another name of src (of what a
// followed symlink points to).
func (cp *Copier) makeHardLink(src, dst string, follow, dstExists bool) bool {
	c, q := cp.C, cp.Q
	if dstExists {
		if !cp.UnlinkAfterFailedOpen && !cp.RemoveDestination {
			cp.errorf("cannot create hard link %s to %s: %s", q.AF(dst), q.AF(src), "File exists")
			return false
		}
		if err := c.FS.Remove(c.Abs(dst)); err != nil {
			cp.errorf("cannot remove %s: %s", q.AF(dst), builtins.ErrText(err))
			return false
		}
	}
	from := src
	if follow {
		from = Physical(c.FS, c.Dir, src, true)
	}
	if err := c.Link(from, dst); err != nil {
		cp.errorf("cannot create hard link %s to %s: %s", q.AF(dst), q.AF(src), builtins.ErrText(err))
		return false
	}
	cp.reportCopied(src, dst)
	return true
}

func (cp *Copier) copyFile(src, dst string, sfi fs.FileInfo, dstExists bool) bool {
	c, q := cp.C, cp.Q
	in, err := c.Open(src)
	if err != nil {
		cp.errorf("cannot open %s for reading: %s", q.AF(src), builtins.ErrText(err))
		return false
	}
	defer in.Close()
	perm := modes.Perm(sfi.Mode())
	if cp.Mode != nil {
		perm = modes.Perm(*cp.Mode)
	}
	if dstExists && cp.RemoveDestination {
		if err := c.FS.Remove(c.Abs(dst)); err != nil && !builtins.IsNotExist(err) {
			cp.errorf("cannot remove %s: %s", q.AF(dst), builtins.ErrText(err))
			return false
		}
		dstExists = false
	}
	var out interface {
		io.Writer
		Close() error
	}
	if dstExists {
		f, err := c.FS.OpenFile(c.Abs(dst), os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil && cp.UnlinkAfterFailedOpen {
			if rerr := c.FS.Remove(c.Abs(dst)); rerr != nil {
				cp.errorf("cannot remove %s: %s", q.AF(dst), builtins.ErrText(rerr))
				return false
			}
			dstExists = false
		} else if err != nil {
			cp.errorf("cannot create regular file %s: %s", q.AF(dst), builtins.ErrText(err))
			return false
		} else {
			out = f
		}
	}
	newMode := perm &^ uint32(c.Umask)
	if cp.PreserveMode || cp.MoveMode || cp.Mode != nil {
		newMode = perm
	}
	if !dstExists {
		if lfi, lerr := c.Lstat(dst); lerr == nil && lfi.Mode()&fs.ModeSymlink != 0 {
			cp.errorf("not writing through dangling symlink %s", q.AF(dst))
			return false
		}
		if strings.HasSuffix(dst, "/") {
			cp.errorf("cannot create regular file %s: %s", q.AF(dst), builtins.ErrText(errNotDir))
			return false
		}
		f, err := c.FS.OpenFile(c.Abs(dst), os.O_WRONLY|os.O_CREATE|os.O_EXCL, modes.FromPerm(newMode&0o777))
		if err != nil {
			cp.errorf("cannot create regular file %s: %s", q.AF(dst), builtins.ErrText(err))
			return false
		}
		out = f
	}
	if err := cp.copyData(out, in, src, dst); err != nil {
		out.Close()
		return false
	}
	if err := out.Close(); err != nil {
		cp.errorf("failed to close %s: %s", q.AF(dst), builtins.ErrText(err))
		return false
	}
	// A new file was created with newMode's permission bits; set the
	// mode explicitly where it must be exact.
	if cp.PreserveMode || cp.MoveMode || cp.Mode != nil || !dstExists && newMode&^0o777 != 0 {
		cp.chmod(dst, newMode)
	}
	if cp.PreserveTimes || cp.MoveMode {
		cp.chtimes(dst, sfi)
	}
	cp.reportCopied(src, dst)
	return true
}

// copyData streams in to out, checking for cancellation between chunks.
func (cp *Copier) copyData(out io.Writer, in io.Reader, src, dst string) error {
	if cp.buf == nil {
		cp.buf = make([]byte, 128*1024)
	}
	buf := cp.buf
	for {
		if cp.Ctx != nil && cp.Ctx.Err() != nil { // an atomic load per 128 KiB chunk
			return cp.Ctx.Err()
		}
		n, rerr := in.Read(buf)
		if n > 0 {
			if _, werr := out.Write(buf[:n]); werr != nil {
				cp.errorf("error writing %s: %s", cp.Q.AF(dst), builtins.ErrText(werr))
				return werr
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			cp.errorf("error reading %s: %s", cp.Q.AF(src), builtins.ErrText(rerr))
			return rerr
		}
	}
}

// sortByInode orders directory entries by inode number when the
// filesystem reports one (host volumes), as GNU cp reads directories;
// in-memory volumes list in creation order, which is the same thing.
func sortByInode(entries []fs.FileInfo) {
	if len(entries) < 2 {
		return
	}
	inos := make([]uint64, len(entries))
	for i, e := range entries {
		ino, ok := overlayfs.Inode(e)
		if !ok {
			return
		}
		inos[i] = ino
	}
	idx := make([]int, len(entries))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return inos[idx[a]] < inos[idx[b]] })
	sorted := make([]fs.FileInfo, len(entries))
	for i, j := range idx {
		sorted[i] = entries[j]
	}
	copy(entries, sorted)
}

// joinPath appends name to dir as GNU's file_name_concat does: no doubled
// slash.
func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// JoinPath is joinPath for the commands.
func JoinPath(dir, name string) string { return joinPath(dir, name) }

// SameLinkedFile reports whether two infos are names of one file with
// several links (the only files whose identity the sandbox reports).
func SameLinkedFile(a, b fs.FileInfo) bool {
	if a == nil || b == nil || a.IsDir() || b.IsDir() {
		return false
	}
	sa, ok := overlayfs.SysStat(a)
	if !ok || sa.Nlink < 2 || sa.Ino == 0 {
		return false
	}
	sb, ok := overlayfs.SysStat(b)
	return ok && sb.Nlink > 1 && sa.Ino == sb.Ino && sa.Dev == sb.Dev
}
