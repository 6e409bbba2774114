//go:build !linux

package hostsandbox

import (
	"errors"
	"os"
)

func seccompFile() (*os.File, error) {
	return nil, errors.New("seccomp exists only on Linux")
}

func seccompSupported() bool { return false }
