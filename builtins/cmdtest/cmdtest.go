// Package cmdtest runs a single command over an in-memory sandbox
// filesystem, for command unit tests.
package cmdtest

import (
	"bytes"
	"context"
	"io"
	"path"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// Result is what a command produced.
type Result struct {
	Stdout, Stderr string
	Code           int
	FS             builtins.FS
}

// Env is a test sandbox: an ephemeral volume at /work holding Files.
type Env struct {
	// Files maps guest paths (relative ones are under /work) to contents.
	// A content starting with "->" makes a symlink to the rest.
	Files map[string]string
	Dir   string // default /work
	Stdin string
	// Exec runs sub-commands (xargs, env...); default: 127 for any.
	Exec func(ctx context.Context, c *builtins.Call) int
	Env  []string
	// PipeAfter, when positive, makes standard output a pipe whose reader
	// goes away after that many bytes: later writes fail as a closed pipe
	// does, and the result's Stdout holds the bytes read.
	PipeAfter int
}

// NewFS builds the sandbox filesystem of e.
func (e *Env) NewFS() builtins.FS {
	table, err := volumes.NewTable([]volumes.Volume{{GuestPath: "/work", Mode: volumes.Ephemeral}})
	if err != nil {
		panic(err)
	}
	ns := table.Namespace(volumes.Options{Quota: &overlayfs.Quota{}, Home: "/home/user"})
	for name, content := range e.Files {
		if !path.IsAbs(name) {
			name = "/work/" + name
		}
		ns.MkdirAll(path.Dir(name), 0o755)
		if strings.HasSuffix(name, "/") {
			ns.MkdirAll(name, 0o755)
			continue
		}
		if t, ok := strings.CutPrefix(content, "->"); ok {
			ns.SymlinkIfPossible(t, name)
			continue
		}
		f, err := ns.Create(name)
		if err != nil {
			panic(err)
		}
		f.Write([]byte(content))
		f.Close()
	}
	return ns
}

// Run runs cmd with args (args[0] is the command name) in e.
func (e *Env) Run(cmd builtins.Command, args ...string) Result {
	fsys := e.NewFS()
	return e.RunIn(fsys, cmd, args...)
}

// RunIn runs cmd over an existing filesystem.
func (e *Env) RunIn(fsys builtins.FS, cmd builtins.Command, args ...string) Result {
	var out bytes.Buffer
	var stdout io.Writer = &out
	if e.PipeAfter > 0 {
		stdout = &pipeWriter{buf: &out, n: e.PipeAfter}
	}
	return e.run(context.Background(), fsys, stdout, &out, cmd, args)
}

// run runs cmd writing to stdout; out is what the result reports as its
// standard output.
func (e *Env) run(ctx context.Context, fsys builtins.FS, stdout io.Writer, out *bytes.Buffer, cmd builtins.Command, args []string) Result {
	var errb bytes.Buffer
	dir := e.Dir
	if dir == "" {
		dir = "/work"
	}
	exec := e.Exec
	if exec == nil {
		exec = func(ctx context.Context, c *builtins.Call) int { return 127 }
	}
	env := e.Env
	if env == nil {
		env = []string{"PATH=/usr/bin:/bin", "HOME=/home/user", "LANG=C.UTF-8"}
	}
	c := &builtins.Call{
		Args: args, Stdin: strings.NewReader(e.Stdin), Stdout: stdout, Stderr: &errb,
		Env: env, Dir: dir, FS: fsys, Exec: exec,
		Umask: 0o022, // a shell's default, which GNU tools run under
	}
	code := cmd(ctx, c)
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: code, FS: fsys}
}
