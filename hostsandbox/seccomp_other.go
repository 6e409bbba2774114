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

func memFile(string, []byte) (*os.File, error) {
	return nil, errors.New("in-memory files exist only on Linux")
}
