// Package aferovfs converts between github.com/spf13/afero filesystems and
// vfs.FS, for library users who hold one and need the other (an afero
// MemMapFs handed to code written against vfs.FS, a sandbox layer handed
// to an afero-based library). Files need no conversion: every afero.File
// is a vfs.File and every vfs.File an afero.File, since the method sets
// are the same. Only the filesystems differ, in the declared result type
// of Open, Create and OpenFile.
//
// It is a separate package so that importing vfs does not link afero
// (whose root package pulls in net/http).
package aferovfs

import (
	"io/fs"

	"github.com/bashbox/bashbox/vfs"
	"github.com/spf13/afero"
)

// FromAfero returns fsys as a vfs.FS. When fsys supports symlinks
// (afero.Symlinker) so does the result (vfs.Symlinker).
func FromAfero(fsys afero.Fs) vfs.FS {
	if back, ok := fsys.(toAfero); ok {
		return back.FS
	}
	if back, ok := fsys.(toAferoLinks); ok {
		return back.FS
	}
	if s, ok := fsys.(afero.Symlinker); ok {
		return fromAferoLinks{fromAfero{fsys}, s}
	}
	return fromAfero{fsys}
}

// ToAfero returns fsys as an afero.Fs. When fsys supports symlinks
// (vfs.Symlinker) so does the result (afero.Symlinker).
func ToAfero(fsys vfs.FS) afero.Fs {
	if back, ok := fsys.(fromAfero); ok {
		return back.Fs
	}
	if back, ok := fsys.(fromAferoLinks); ok {
		return back.Fs
	}
	if s, ok := fsys.(vfs.Symlinker); ok {
		return toAferoLinks{toAfero{fsys}, s}
	}
	return toAfero{fsys}
}

type fromAfero struct{ afero.Fs }

func (f fromAfero) Create(name string) (vfs.File, error) { return file(f.Fs.Create(name)) }
func (f fromAfero) Open(name string) (vfs.File, error)   { return file(f.Fs.Open(name)) }
func (f fromAfero) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	return file(f.Fs.OpenFile(name, flag, perm))
}

// file keeps a failed open's result a nil interface, not an interface
// holding a nil afero.File.
func file(f afero.File, err error) (vfs.File, error) {
	if f == nil {
		return nil, err
	}
	return f, err
}

type fromAferoLinks struct {
	fromAfero
	afero.Symlinker
}

type toAfero struct{ vfs.FS }

func (f toAfero) Create(name string) (afero.File, error) { return aferoFile(f.FS.Create(name)) }
func (f toAfero) Open(name string) (afero.File, error)   { return aferoFile(f.FS.Open(name)) }
func (f toAfero) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	return aferoFile(f.FS.OpenFile(name, flag, perm))
}

func aferoFile(f vfs.File, err error) (afero.File, error) {
	if f == nil {
		return nil, err
	}
	return f, err
}

type toAferoLinks struct {
	toAfero
	vfs.Symlinker
}
