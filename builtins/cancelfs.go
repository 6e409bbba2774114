package builtins

import (
	"context"
	"io/fs"
	"os"

	"github.com/bashbox/bashbox/vfs"
)

// CancelFS returns fsys with every read and write of the files it opens
// failing once ctx is done. A command handing the filesystem to a library
// that does its own I/O loops (go-git) so stops with the call.
func CancelFS(ctx context.Context, fsys FS) FS { return &cancelFS{FS: fsys, ctx: ctx} }

type cancelFS struct {
	FS
	ctx context.Context
}

func (c *cancelFS) Open(name string) (vfs.File, error) {
	return c.OpenFile(name, os.O_RDONLY, 0)
}

func (c *cancelFS) Create(name string) (vfs.File, error) {
	return c.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (c *cancelFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if err := c.ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	f, err := c.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &cancelFile{File: f, ctx: c.ctx}, nil
}

type cancelFile struct {
	vfs.File
	ctx context.Context
}

func (f *cancelFile) check(op string) error {
	if err := f.ctx.Err(); err != nil {
		return &fs.PathError{Op: op, Path: f.Name(), Err: err}
	}
	return nil
}

func (f *cancelFile) Read(p []byte) (int, error) {
	if err := f.check("read"); err != nil {
		return 0, err
	}
	return f.File.Read(p)
}

func (f *cancelFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.check("read"); err != nil {
		return 0, err
	}
	return f.File.ReadAt(p, off)
}

func (f *cancelFile) Write(p []byte) (int, error) {
	if err := f.check("write"); err != nil {
		return 0, err
	}
	return f.File.Write(p)
}

func (f *cancelFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.check("write"); err != nil {
		return 0, err
	}
	return f.File.WriteAt(p, off)
}

func (f *cancelFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }
