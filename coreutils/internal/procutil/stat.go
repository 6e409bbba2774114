package procutil

import (
	"io/fs"
	"path"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/overlayfs"
)

// resolver is implemented by the sandbox namespace.
type resolver interface {
	Resolve(name string, followLast bool) (string, error)
}

// Realpath returns the physical guest path of name (relative to c.Dir),
// every symlink followed.
func Realpath(c *builtins.Call, name string) (string, error) {
	abs := c.Abs(name)
	if r, ok := c.FS.(resolver); ok {
		return r.Resolve(abs, true)
	}
	p, err := overlayfs.ResolveIn(c.FS, abs, true)
	if err != nil {
		return p, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return path.Clean(p), nil
}

// SandboxUID and SandboxGID own every file of the sandbox; the user and
// group are both called SandboxUser.
const (
	SandboxUID  = 1000
	SandboxGID  = 1000
	SandboxUser = "user"
)

// ensure builtins.FS satisfies the resolver's needs.
var _ overlayfs.LinkFS = builtins.FS(nil)
