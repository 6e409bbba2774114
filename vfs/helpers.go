package vfs

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
)

// ReadFile reads the whole named file of fsys.
func ReadFile(fsys FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 && fi.Size() < 1<<30 {
		buf.Grow(int(fi.Size()) + 1)
	}
	if _, err := io.Copy(&buf, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Lstat stats name without following a final symlink when fsys can
// (Lstater), and follows it otherwise.
func Lstat(fsys FS, name string) (fs.FileInfo, error) {
	if l, ok := fsys.(Lstater); ok {
		fi, _, err := l.LstatIfPossible(name)
		return fi, err
	}
	return fsys.Stat(name)
}

// Walk calls fn for root and everything below it, in lexical order within
// each directory, as filepath.Walk does over the host: symlinks are
// reported and not followed (when fsys can lstat), an error listing a
// directory is passed to fn a second time for that directory, and
// fs.SkipDir / fs.SkipAll from fn prune the walk.
func Walk(fsys FS, root string, fn filepath.WalkFunc) error {
	fi, err := Lstat(fsys, root)
	if err != nil {
		err = fn(root, nil, err)
	} else {
		err = walk(fsys, root, fi, fn)
	}
	if err == fs.SkipDir || err == fs.SkipAll {
		return nil
	}
	return err
}

func walk(fsys FS, name string, fi fs.FileInfo, fn filepath.WalkFunc) error {
	if err := fn(name, fi, nil); err != nil || !fi.IsDir() {
		if err == fs.SkipDir && fi.IsDir() {
			return nil
		}
		return err
	}
	names, err := dirNames(fsys, name)
	if err != nil {
		return fn(name, fi, err)
	}
	for _, n := range names {
		child := path.Join(name, n)
		cfi, err := Lstat(fsys, child)
		if err != nil {
			if err := fn(child, cfi, err); err != nil && err != fs.SkipDir {
				return err
			}
			continue
		}
		if err := walk(fsys, child, cfi, fn); err != nil {
			if !cfi.IsDir() || err != fs.SkipDir {
				return err
			}
		}
	}
	return nil
}

func dirNames(fsys FS, name string) ([]string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	return names, nil
}
