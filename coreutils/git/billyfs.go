package git

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/bashbox/bashbox/vfs"
	"github.com/go-git/go-billy/v5"

	"github.com/bashbox/bashbox/builtins"
)

// billyFS adapts the sandbox filesystem (guest absolute paths) to go-billy's
// Filesystem, rooted at a guest directory. Paths given to it are relative to
// the root (a leading "/" means the root too, as in billy's chroot), and the
// names of the files it opens are reported relative to the root, the way
// go-git expects.
type billyFS struct {
	fs   builtins.FS
	root string // guest absolute, cleaned
}

func newBillyFS(fsys builtins.FS, root string) *billyFS {
	return &billyFS{fs: fsys, root: path.Clean(root)}
}

var _ billy.Filesystem = (*billyFS)(nil)
var _ billy.Chmod = (*billyFS)(nil)

// abs maps a name inside the filesystem to its guest path, refusing names
// that climb out of the root.
func (b *billyFS) abs(name string) (string, error) {
	rel := path.Clean("/" + name)
	if strings.HasPrefix(path.Clean(name), "../") || path.Clean(name) == ".." {
		return "", &fs.PathError{Op: "open", Path: name, Err: billy.ErrCrossedBoundary}
	}
	if rel == "/" {
		return b.root, nil
	}
	if b.root == "/" {
		return rel, nil
	}
	return b.root + rel, nil
}

func (b *billyFS) mkParent(p string) error {
	dir := path.Dir(p)
	if dir == p {
		return nil
	}
	if fi, err := b.fs.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	return b.fs.MkdirAll(dir, 0o755)
}

func (b *billyFS) Create(name string) (billy.File, error) {
	return b.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (b *billyFS) Open(name string) (billy.File, error) {
	return b.OpenFile(name, os.O_RDONLY, 0)
}

func (b *billyFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	p, err := b.abs(name)
	if err != nil {
		return nil, err
	}
	if flag&os.O_CREATE != 0 {
		if err := b.mkParent(p); err != nil {
			return nil, err
		}
	}
	f, err := b.fs.OpenFile(p, flag, perm)
	if err != nil {
		return nil, err
	}
	return &billyFile{File: f, name: name}, nil
}

func (b *billyFS) Stat(name string) (os.FileInfo, error) {
	p, err := b.abs(name)
	if err != nil {
		return nil, err
	}
	return b.fs.Stat(p)
}

func (b *billyFS) Lstat(name string) (os.FileInfo, error) {
	p, err := b.abs(name)
	if err != nil {
		return nil, err
	}
	fi, _, err := b.fs.LstatIfPossible(p)
	return fi, err
}

func (b *billyFS) Rename(oldpath, newpath string) error {
	op, err := b.abs(oldpath)
	if err != nil {
		return err
	}
	np, err := b.abs(newpath)
	if err != nil {
		return err
	}
	if err := b.mkParent(np); err != nil {
		return err
	}
	return b.fs.Rename(op, np)
}

func (b *billyFS) Remove(name string) error {
	p, err := b.abs(name)
	if err != nil {
		return err
	}
	return b.fs.Remove(p)
}

func (b *billyFS) Join(elem ...string) string { return path.Join(elem...) }

func (b *billyFS) TempFile(dir, prefix string) (billy.File, error) {
	p, err := b.abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := b.fs.Stat(p); err != nil || !fi.IsDir() {
		if err := b.fs.MkdirAll(p, 0o755); err != nil {
			return nil, err
		}
	}
	for try := 0; ; try++ {
		name := path.Join(dir, fmt.Sprintf("%s%d", prefix, rand.Uint32()))
		f, err := b.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil || !errors.Is(err, fs.ErrExist) || try > 100 {
			return f, err
		}
	}
}

func (b *billyFS) ReadDir(name string) ([]os.FileInfo, error) {
	p, err := b.abs(name)
	if err != nil {
		return nil, err
	}
	entries, err := b.fs.ReadDir(p)
	if err != nil {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, nil
}

func (b *billyFS) MkdirAll(name string, perm os.FileMode) error {
	p, err := b.abs(name)
	if err != nil {
		return err
	}
	return b.fs.MkdirAll(p, perm)
}

func (b *billyFS) Symlink(target, link string) error {
	p, err := b.abs(link)
	if err != nil {
		return err
	}
	if err := b.mkParent(p); err != nil {
		return err
	}
	return b.fs.SymlinkIfPossible(target, p)
}

func (b *billyFS) Readlink(link string) (string, error) {
	p, err := b.abs(link)
	if err != nil {
		return "", err
	}
	return b.fs.ReadlinkIfPossible(p)
}

func (b *billyFS) Chmod(name string, mode os.FileMode) error {
	p, err := b.abs(name)
	if err != nil {
		return err
	}
	return b.fs.Chmod(p, mode)
}

func (b *billyFS) Chroot(dir string) (billy.Filesystem, error) {
	p, err := b.abs(dir)
	if err != nil {
		return nil, err
	}
	return newBillyFS(b.fs, p), nil
}

func (b *billyFS) Root() string { return b.root }

// billyFile is an open sandbox file named as billy expects; locks are
// no-ops (a sandbox call is the only writer of its repository).
type billyFile struct {
	vfs.File
	name string
}

func (f *billyFile) Name() string  { return f.name }
func (f *billyFile) Lock() error   { return nil }
func (f *billyFile) Unlock() error { return nil }
