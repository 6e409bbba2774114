package procutil

import (
	"context"
	"io"
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
// than from the command itself. The caller prints its own message for a
// failure (as GNU tools do), so the shell's own "bash: NAME: command not
// found" line, when the dispatcher writes one, is held back.
func Exec(ctx context.Context, c *builtins.Call, sub *builtins.Call) (int, ExecFailure) {
	var q *quietFailure
	if len(sub.Args) > 0 && sub.Stderr != nil {
		q = &quietFailure{w: sub.Stderr, prefix: "bash: " + sub.Args[0] + ": "}
		s2 := *sub
		s2.Stderr = q
		sub = &s2
	}
	status := c.Exec(ctx, sub)
	if q != nil && q.held != nil {
		held := string(q.held)
		q.held = nil
		switch {
		case status == 127 && (strings.HasSuffix(held, ": command not found\n") || strings.HasSuffix(held, ": No such file or directory\n")):
			return status, NotFound
		case status == 126 && (strings.HasSuffix(held, ": Is a directory\n") || strings.HasSuffix(held, ": Permission denied\n")):
			return status, NotRunnable
		}
		q.w.Write([]byte(held))
	}
	if status != 126 && status != 127 {
		return status, Ran
	}
	return status, lookupFailure(c, sub, status)
}

// quietFailure passes writes through, except that a first write that
// looks like the shell's report of a command it could not run is held
// until the caller knows the command's status.
type quietFailure struct {
	w       io.Writer
	prefix  string
	started bool
	held    []byte
}

func (q *quietFailure) Write(p []byte) (int, error) {
	if !q.started {
		q.started = true
		s := string(p)
		if strings.HasPrefix(s, q.prefix) && strings.IndexByte(s, '\n') == len(s)-1 {
			for _, t := range []string{"command not found", "No such file or directory", "Is a directory", "Permission denied"} {
				if strings.HasSuffix(s, ": "+t+"\n") {
					q.held = append([]byte(nil), p...)
					return len(p), nil
				}
			}
		}
	}
	if q.held != nil {
		held := q.held
		q.held = nil
		if _, err := q.w.Write(held); err != nil {
			return 0, err
		}
	}
	return q.w.Write(p)
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
