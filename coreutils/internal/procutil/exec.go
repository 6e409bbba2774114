package procutil

import (
	"context"
	"io/fs"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// ExecFailure is why a command could not be run.
type ExecFailure int

const (
	// Ran: the command ran (whatever its status).
	Ran ExecFailure = iota
	// NotFound: there is no such command (status 127).
	NotFound
	// NotRunnable: the command exists but cannot be run (status 126).
	NotRunnable
)

// Text is the C library's text for the failure, as GNU tools print it
// after the command name.
func (f ExecFailure) Text() string {
	switch f {
	case NotFound:
		return "No such file or directory"
	case NotRunnable:
		return "Permission denied"
	}
	return ""
}

// Exec runs sub through c.Exec and tells whether a status of 127 or 126
// came from the sandbox failing to find or start the command, rather
// than from the command itself, by looking the command up the way
// execvp does: a name with a slash as a path, any other name in $PATH.
func Exec(ctx context.Context, c *builtins.Call, sub *builtins.Call) (int, ExecFailure) {
	status := c.Exec(ctx, sub)
	if status != 126 && status != 127 {
		return status, Ran
	}
	return status, lookupFailure(c, sub, status)
}

func lookupFailure(c *builtins.Call, sub *builtins.Call, status int) ExecFailure {
	if len(sub.Args) == 0 {
		return NotFound
	}
	name := sub.Args[0]
	var found fs.FileInfo
	if name == "" {
		return NotFound
	}
	if strings.Contains(name, "/") {
		fi, err := sub.FS.Stat(sub.Abs(name))
		if err == nil {
			found = fi
		}
	} else {
		path, _ := sub.LookupEnv("PATH")
		for _, dir := range strings.Split(path, ":") {
			if dir == "" {
				dir = "."
			}
			fi, err := sub.FS.Stat(sub.Abs(strings.TrimSuffix(dir, "/") + "/" + name))
			if err == nil && !fi.IsDir() {
				found = fi
				break
			}
		}
	}
	switch {
	case found == nil:
		if status == 127 {
			return NotFound
		}
		return Ran
	case found.IsDir() || found.Mode()&0o111 == 0:
		if status == 126 {
			return NotRunnable
		}
	}
	return Ran
}
