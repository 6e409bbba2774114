package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// ErrText is the C library's text for an error, as GNU tools print it:
// "No such file or directory", "Is a directory".
func ErrText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return capitalize(errno.Error())
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, os.ErrClosed):
		return "Bad file descriptor"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return capitalize(pe.Err.Error())
	}
	return capitalize(err.Error())
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Errorf prints "NAME: message" on the call's standard error.
func (c *Call) Errorf(format string, args ...any) {
	fmt.Fprintf(c.Stderr, "%s: %s\n", c.Name(), fmt.Sprintf(format, args...))
}

// FileError prints "NAME: FILE: error text", GNU style, and returns status.
func (c *Call) FileError(file string, err error, status int) int {
	c.Errorf("%s: %s", file, ErrText(err))
	return status
}

// TryHelp prints GNU's hint after a usage error, "Try 'NAME --help' for
// more information.", and returns status. Every command's usage errors
// end with it.
func (c *Call) TryHelp(status int) int {
	fmt.Fprintf(c.Stderr, "Try '%s --help' for more information.\n", c.Name())
	return status
}

// TryHelpNamed is TryHelp in the diffutils style, where the hint is a
// diagnostic of its own: "NAME: Try 'NAME --help' for more information."
func (c *Call) TryHelpNamed(status int) int {
	c.Errorf("Try '%s --help' for more information.", c.Name())
	return status
}

// IsNotExist reports whether err means the file does not exist.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// IsBrokenPipe reports whether a write failed because the reader is gone;
// a command then stops quietly, as it would on SIGPIPE.
func IsBrokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) || errors.Is(err, ErrPipeClosed)
}

// ErrPipeClosed is returned by writes to a pipe whose reader has gone.
var ErrPipeClosed = errors.New("broken pipe")
