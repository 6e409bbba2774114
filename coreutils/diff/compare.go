package diff

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// comparison is a pair of files being compared, with its parent pair.
type comparison struct {
	parent *comparison
	file   [2]side
}

type side struct {
	name   string // name relative to the working directory, or the label
	exists bool   // false: a missing file treated as empty (-N, -P)
	stdin  bool
	info   fs.FileInfo
	err    error
	isDir  bool
	isLink bool
	real   string // resolved absolute name of a directory, for loop checks
}

func (s *side) typeName() string {
	if s.info == nil {
		return "regular empty file"
	}
	return modes.FileType(s.info)
}

// joinName is gnulib's file_name_concat(dir, base).
func joinName(dir, base string) string {
	t := dir
	for len(t) > 1 && t[len(t)-1] == '/' {
		t = t[:len(t)-1]
	}
	if t == "" {
		return base
	}
	if strings.HasSuffix(t, "/") {
		return t + base
	}
	return t + "/" + base
}

// errorf prints an error message after flushing the output, as glibc's
// error() does, so that messages and output keep their order.
func (d *differ) errorf(format string, args ...any) {
	d.out.Flush()
	d.c.Errorf(format, args...)
}

func (d *differ) fileError(name string, err error) {
	d.out.Flush()
	d.c.FileError(name, err, 2)
}

func (d *differ) message(format string, args ...any) {
	fmt.Fprintf(d.out, format, args...)
}

func (d *differ) stat(s *side) {
	if s.name == "-" {
		s.stdin = true
		return
	}
	var fi fs.FileInfo
	var err error
	if d.cfg.noDereference {
		fi, err = d.c.Lstat(s.name)
	} else {
		fi, err = d.c.Stat(s.name)
	}
	if err != nil {
		s.err = err
		return
	}
	s.info = fi
	s.isDir = fi.IsDir()
	s.isLink = fi.Mode()&fs.ModeSymlink != 0
}

func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || strings.Contains(builtins.ErrText(err), "Not a directory")
}

// compareFiles compares name0 and name1 (either may be absent in a
// directory comparison: the file is then only in the other directory).
// It returns 0, 1, 2, or statusFatal to stop everything.
func (d *differ) compareFiles(parent *comparison, name0, name1 string, has0, has1 bool) int {
	cfg := d.cfg
	if err := d.ctx.Err(); err != nil {
		return statusFatal
	}
	toplevel := parent.parent == nil && parent.file[0].name == ""
	if !((has0 && has1) || (cfg.unidirectionalNew && has1) || cfg.newFile) {
		name, dir := name0, parent.file[1].name
		if has0 {
			dir = parent.file[0].name
		} else {
			name = name1
		}
		d.message("Only in %s: %s\n", dir, name)
		return 1
	}
	cmp := &comparison{parent: parent}
	cmp.file[0].exists, cmp.file[1].exists = has0, has1
	if !has0 {
		name0 = name1
	}
	if !has1 {
		name1 = name0
	}
	if toplevel {
		cmp.file[0].name, cmp.file[1].name = name0, name1
	} else {
		cmp.file[0].name = joinName(parent.file[0].name, name0)
		cmp.file[1].name = joinName(parent.file[1].name, name1)
	}
	for f := 0; f < 2; f++ {
		if !cmp.file[f].exists {
			continue
		}
		if f == 1 && cmp.file[1].name == cmp.file[0].name && cmp.file[0].exists {
			cmp.file[1].stdin = cmp.file[0].stdin
			cmp.file[1].info = cmp.file[0].info
			cmp.file[1].err = cmp.file[0].err
			cmp.file[1].isDir = cmp.file[0].isDir
			cmp.file[1].isLink = cmp.file[0].isLink
			continue
		}
		if cmp.file[1-f].err != nil && f == 1 {
			// GNU does not stat the second file once the first failed
			// with an error other than a missing file.
		}
		d.stat(&cmp.file[f])
	}
	if toplevel {
		f0, f1 := &cmp.file[0], &cmp.file[1]
		if f0.err == nil && f1.err == nil && f0.isDir != f1.isDir {
			fnm, dir := 0, 1
			if f0.isDir {
				fnm, dir = 1, 0
			}
			if cmp.file[fnm].stdin {
				d.errorf("cannot compare '-' to a directory")
				return statusFatal
			}
			base := path.Base(cmp.file[fnm].name)
			if cmp.file[fnm].name == "" {
				base = ""
			}
			ds := &cmp.file[dir]
			ds.name = joinName(ds.name, base)
			ds.info, ds.err, ds.isDir, ds.isLink = nil, nil, false, false
			d.stat(ds)
		}
		for f := 0; f < 2; f++ {
			if (cfg.newFile || (f == 0 && cfg.unidirectionalNew)) &&
				cmp.file[f].err != nil && isNotExist(cmp.file[f].err) &&
				!(cmp.file[1-f].err != nil && isNotExist(cmp.file[1-f].err)) {
				cmp.file[f].exists = false
				cmp.file[f].err = nil
			}
		}
	}
	for f := 0; f < 2; f++ {
		if !cmp.file[f].exists {
			o := &cmp.file[1-f]
			cmp.file[f].isDir = o.isDir
			cmp.file[f].isLink = o.isLink
		}
	}
	status := 0
	for f := 0; f < 2; f++ {
		if cmp.file[f].err != nil {
			d.fileError(cmp.file[f].name, cmp.file[f].err)
			status = 2
		}
	}
	if status != 0 {
		return status
	}
	status = d.comparePrepped(parent, cmp, toplevel)
	if status == 0 && cfg.reportIdentical && !(cmp.file[0].isDir && cmp.file[1].isDir) {
		d.message("Files %s and %s are identical\n", d.label(0, cmp.file[0].name), d.label(1, cmp.file[1].name))
	}
	return status
}

func (d *differ) label(f int, name string) string {
	if f < len(d.cfg.labels) {
		return d.cfg.labels[f]
	}
	return name
}

func (d *differ) comparePrepped(parent, cmp *comparison, toplevel bool) int {
	cfg := d.cfg
	f0, f1 := &cmp.file[0], &cmp.file[1]
	if !f0.exists && !f1.exists {
		return 0
	}
	if (f0.isDir && f1.isDir) ||
		(cfg.recursive && ((cfg.newFile && f1.isDir && !f0.exists) ||
			((cfg.newFile || cfg.unidirectionalNew) && f0.isDir && !f1.exists))) {
		if cfg.style == styleIfdef {
			d.errorf("-D option not supported with directories")
			return statusFatal
		}
		if cfg.recursive || toplevel {
			return d.diffDirs(cmp)
		}
		d.message("Common subdirectories: %s and %s\n", f0.name, f1.name)
		return 0
	}
	if (!f0.exists && !(cfg.newFile || cfg.unidirectionalNew)) || (!f1.exists && !cfg.newFile) {
		existing := 0
		if !f0.exists {
			existing = 1
		}
		d.message("Only in %s: %s\n", parent.file[existing].name, path.Base(cmp.file[existing].name))
		return 1
	}
	kindDiffers := false
	if toplevel {
		kindDiffers = f0.isLink != f1.isLink
	} else {
		m0, m1 := modeOf(f0), modeOf(f1)
		switch {
		case m0.IsRegular():
			kindDiffers = !m1.IsRegular()
		case m0&fs.ModeSymlink != 0:
			kindDiffers = m1&fs.ModeSymlink == 0
		case m0&fs.ModeCharDevice != 0:
			kindDiffers = m1&fs.ModeCharDevice == 0
		case m0&fs.ModeDevice != 0:
			kindDiffers = m1&fs.ModeDevice == 0 || m1&fs.ModeCharDevice != 0
		default:
			kindDiffers = true
		}
	}
	if kindDiffers {
		d.message("File %s is a %s while file %s is a %s\n",
			d.label(0, f0.name), typeName(f0, f1), d.label(1, f1.name), typeName(f1, f0))
		return 1
	}
	if f0.isLink {
		t0, err0 := d.c.FS.ReadlinkIfPossible(d.c.Abs(f0.name))
		if err0 != nil {
			d.fileError(f0.name, err0)
			return 2
		}
		t1, err1 := d.c.FS.ReadlinkIfPossible(d.c.Abs(f1.name))
		if err1 != nil {
			d.fileError(f1.name, err1)
			return 2
		}
		if t0 == t1 {
			return 0
		}
		d.message("Symbolic links %s and %s differ\n", f0.name, f1.name)
		return 1
	}
	if cfg.treatAsBinary && f0.exists && f1.exists && !f0.stdin && !f1.stdin &&
		f0.info.Mode().IsRegular() && f1.info.Mode().IsRegular() && f0.info.Size() != f1.info.Size() {
		d.message("Files %s and %s differ\n", d.label(0, f0.name), d.label(1, f1.name))
		return 1
	}
	return d.diff2Files(cmp)
}

func modeOf(s *side) fs.FileMode {
	if s.info == nil {
		return 0
	}
	return s.info.Mode()
}

func typeName(s, other *side) string {
	if !s.exists {
		return other.typeName()
	}
	if s.stdin {
		return "fifo"
	}
	return s.typeName()
}

// readSide reads a file's contents (empty for a missing one).
func (d *differ) readSide(s *side) ([]byte, error) {
	if !s.exists {
		return nil, nil
	}
	if s.stdin {
		if !d.stdinRead {
			d.stdinRead = true
			r := textio.Stdin(d.c)
			d.stdin, d.stdinErr = d.c.ReadAll(d.ctx, r)
		}
		return d.stdin, d.stdinErr
	}
	f, err := d.c.Open(s.name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return d.c.ReadAll(d.ctx, f)
}

// realPath resolves every symbolic link in name.
func (d *differ) realPath(name string) string {
	abs := path.Clean(d.c.Abs(name))
	resolved := "/"
	rest := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	for hops := 0; len(rest) > 0 && hops < 64; {
		comp := rest[0]
		rest = rest[1:]
		if comp == "" || comp == "." {
			continue
		}
		if comp == ".." {
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, comp)
		fi, _, err := d.c.FS.LstatIfPossible(next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		target, err := d.c.FS.ReadlinkIfPossible(next)
		if err != nil {
			resolved = next
			continue
		}
		hops++
		if path.IsAbs(target) {
			resolved = "/"
		}
		rest = append(strings.Split(strings.Trim(target, "/"), "/"), rest...)
	}
	return resolved
}

// dirLoop reports whether side i of cmp is one of its ancestors.
func (d *differ) dirLoop(cmp *comparison, i int) bool {
	for p := cmp.parent; p != nil && p.parent != nil; p = p.parent {
		if p.file[i].real == cmp.file[i].real {
			return true
		}
	}
	return false
}

// diffDirs compares two directories entry by entry, in sorted order.
func (d *differ) diffDirs(cmp *comparison) int {
	cfg := d.cfg
	var names [2][]string
	status := 0
	for i := 0; i < 2; i++ {
		if cmp.file[i].exists {
			cmp.file[i].real = d.realPath(cmp.file[i].name)
		}
	}
	if (!cmp.file[0].exists || d.dirLoop(cmp, 0)) && (!cmp.file[1].exists || d.dirLoop(cmp, 1)) {
		f := 0
		if !cmp.file[0].exists {
			f = 1
		}
		d.errorf("%s: recursive directory loop", cmp.file[f].name)
		return 2
	}
	for i := 0; i < 2; i++ {
		if !cmp.file[i].exists {
			continue
		}
		entries, err := d.c.ReadDir(cmp.file[i].name)
		if err != nil {
			d.fileError(cmp.file[i].name, err)
			status = 2
			continue
		}
		toplevel := cmp.parent != nil && cmp.parent.parent == nil && cmp.parent.file[0].name == ""
		for _, e := range entries {
			n := e.Name()
			if n == "." || n == ".." {
				continue
			}
			if toplevel && cfg.startingFile != "" && compareNames(n, cfg.startingFile, cfg.ignoreNameCase) < 0 {
				continue
			}
			if excluded(cfg.excludes, n, cfg.ignoreNameCase) {
				continue
			}
			names[i] = append(names[i], n)
		}
		sortNames(names[i], cfg.ignoreNameCase)
	}
	if status != 0 {
		return status
	}
	a, b := names[0], names[1]
	for len(a) > 0 || len(b) > 0 {
		if err := d.ctx.Err(); err != nil {
			return statusFatal
		}
		order := 0
		switch {
		case len(a) == 0:
			order = 1
		case len(b) == 0:
			order = -1
		default:
			order = compareNames(a[0], b[0], cfg.ignoreNameCase)
		}
		var n0, n1 string
		h0, h1 := false, false
		if order <= 0 {
			n0, h0 = a[0], true
			a = a[1:]
		}
		if order >= 0 {
			n1, h1 = b[0], true
			b = b[1:]
		}
		v := d.compareFiles(cmp, n0, n1, h0, h1)
		if v == statusFatal {
			return v
		}
		status = max(status, v)
	}
	return status
}

func excluded(patterns []string, name string, fold bool) bool {
	var fl glob.Flags
	if fold {
		fl = glob.CaseFold
	}
	for _, p := range patterns {
		if glob.Match(p, name, fl) {
			return true
		}
	}
	return false
}

func compareNames(a, b string, fold bool) int {
	if fold {
		la, lb := strings.ToLower(a), strings.ToLower(b)
		return strings.Compare(la, lb)
	}
	return strings.Compare(a, b)
}

func sortNames(names []string, fold bool) {
	// insertion-friendly sort with the comparison used for merging
	sortStrings(names, func(x, y string) bool {
		c := compareNames(x, y, fold)
		if c == 0 {
			return x < y
		}
		return c < 0
	})
}
