package builtins

import (
	"io/fs"
	"syscall"
)

var PathErrorForTest = fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}
