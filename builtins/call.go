// Package builtins is the command registry and the contract between the
// interpreter and the commands: a command is a Go function that receives
// its arguments, standard streams, environment, working directory and the
// sandbox filesystem as a capability. Commands never touch the host: they
// do not import os/exec, net or syscall, and reach files only through
// Call.FS (a test in this package enforces it).
package builtins

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sort"
	"strings"

	"github.com/bashbox/bashbox/vfs"
)

// FS is the guest filesystem a command sees: guest absolute paths, symlinks
// resolved inside the sandbox.
type FS interface {
	vfs.FS
	vfs.Symlinker
	// ReadDir lists a directory in native order.
	ReadDir(name string) ([]fs.FileInfo, error)
	// ReadDirTypes is ReadDir for walks that look only at names and file
	// types: the infos may carry nothing but the name and Mode's type bits
	// (no permissions, size or times), which spares an lstat per entry.
	ReadDirTypes(name string) ([]fs.FileInfo, error)
}

// Call is one invocation of a command.
type Call struct {
	// Args holds the command name in Args[0] and its arguments after it.
	Args   []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Env is the environment as NAME=VALUE pairs (exported variables only).
	Env []string
	// Dir is the guest working directory, absolute.
	Dir string
	FS  FS
	// Umask is the shell's file mode creation mask (022 unless the script
	// changed it); commands apply it to the files they create.
	Umask fs.FileMode
	// Exec runs another command inside the same sandbox, with the given
	// call's streams, environment and directory (xargs, find -exec, env,
	// timeout). It returns the exit status, 127 for an unknown command.
	Exec func(ctx context.Context, c *Call) int
	// Memory, when set, is the call's memory budget (see Grow, ReadAll).
	Memory Memory
	// Workers bounds the goroutines a command may search or compute with
	// at once (grep -r reads and matches files in parallel): 1 keeps the
	// command sequential, 0 lets it pick from the CPUs it has (see
	// SearchWorkers).
	Workers int
}

// SearchWorkers is how many workers a command that parallelises over
// files starts: Workers when set (1 or less: none, search sequentially),
// else one per CPU up to four, none on one CPU. Beyond four the walk that
// feeds them, not the searching, is the bottleneck.
func (c *Call) SearchWorkers() int {
	n := c.Workers
	if n == 0 {
		n = min(runtime.NumCPU(), 4)
	}
	if n < 2 {
		return 0
	}
	return n
}

// Name is the command name as invoked.
func (c *Call) Name() string { return c.Args[0] }

// Getenv returns the value of an environment variable, or "".
func (c *Call) Getenv(name string) string {
	v, _ := c.LookupEnv(name)
	return v
}

// LookupEnv returns the value of an environment variable and whether it is set.
func (c *Call) LookupEnv(name string) (string, bool) {
	for i := len(c.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(c.Env[i], "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// Abs makes a path absolute against the working directory. It does not
// clean it, so that trailing slashes and ".." keep their meaning for the
// filesystem.
func (c *Call) Abs(name string) string {
	if path.IsAbs(name) {
		return name
	}
	// A leading "./" names the working directory itself: without it the
	// path is clean in the common case (find's output, xargs' operands),
	// and the filesystem below need not copy it to clean it.
	for strings.HasPrefix(name, "./") {
		rest := strings.TrimLeft(name[2:], "/")
		if rest == "" {
			break
		}
		name = rest
	}
	if c.Dir == "/" {
		return "/" + name
	}
	return c.Dir + "/" + name
}

// Sub returns a copy of the call for running another command (argv args)
// with the same streams, environment and directory.
func (c *Call) Sub(args []string) *Call {
	sub := *c
	sub.Args = args
	return &sub
}

// Open opens a file for reading. The /dev/stdin family maps to the call's
// own streams, as the kernel maps them to the process's.
func (c *Call) Open(name string) (vfs.File, error) {
	return c.OpenFile(name, os.O_RDONLY, 0)
}

// Create creates or truncates a file for writing.
func (c *Call) Create(name string) (vfs.File, error) {
	return c.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
}

// OpenFile opens name relative to the working directory. A file it
// creates gets perm less the shell's umask, as open(2) does.
func (c *Call) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if f := c.stdStream(name); f != nil {
		return f, nil
	}
	if flag&os.O_CREATE != 0 {
		perm &^= c.Umask & fs.ModePerm
	}
	f, err := c.FS.OpenFile(c.Abs(name), flag, perm)
	if err != nil {
		return nil, renamePathErr(err, name)
	}
	return f, nil
}

// Stat follows symlinks; Lstat does not. Both report errors with name as
// given.
func (c *Call) Stat(name string) (fs.FileInfo, error) {
	fi, err := c.FS.Stat(c.Abs(name))
	return fi, renamePathErr(err, name)
}

func (c *Call) Lstat(name string) (fs.FileInfo, error) {
	fi, _, err := c.FS.LstatIfPossible(c.Abs(name))
	return fi, renamePathErr(err, name)
}

// ReadDir lists a directory in native order.
func (c *Call) ReadDir(name string) ([]fs.FileInfo, error) {
	entries, err := c.FS.ReadDir(c.Abs(name))
	return entries, renamePathErr(err, name)
}

// ReadDirTypes lists a directory in native order with at least each
// entry's name and file type (see FS.ReadDirTypes).
func (c *Call) ReadDirTypes(name string) ([]fs.FileInfo, error) {
	entries, err := c.FS.ReadDirTypes(c.Abs(name))
	return entries, renamePathErr(err, name)
}

// ReadDirSorted lists a directory sorted by name (C locale byte order).
func (c *Call) ReadDirSorted(name string) ([]fs.FileInfo, error) {
	entries, err := c.ReadDir(name)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, err
}

func renamePathErr(err error, name string) error {
	if pe, ok := err.(*fs.PathError); ok && pe.Path != name {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return err
}

func (c *Call) stdStream(name string) vfs.File {
	switch name {
	case "/dev/stdin", "/dev/fd/0":
		return &streamFile{name: name, r: c.Stdin}
	case "/dev/stdout", "/dev/fd/1":
		return &streamFile{name: name, w: c.Stdout}
	case "/dev/stderr", "/dev/fd/2":
		return &streamFile{name: name, w: c.Stderr}
	}
	return nil
}

// Linker is implemented by filesystems that make hard links (the sandbox
// namespace): newname becomes another name of oldname's file, a symlink
// being linked itself.
type Linker interface {
	Link(oldname, newname string) error
}

// Link makes a hard link; the error names the paths as given.
func (c *Call) Link(oldname, newname string) error {
	l, ok := c.FS.(Linker)
	if !ok {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: errors.ErrUnsupported}
	}
	if err := l.Link(c.Abs(oldname), c.Abs(newname)); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) {
			return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: le.Err}
		}
		return err
	}
	return nil
}
