package main

import (
	"os"
	"path/filepath"
)

// The shipped CLI is two binaries in one directory (make build): bashbox,
// the lean front, which starts about as fast as bash and runs the scripts
// package leanscript proves need nothing else, and bashbox-full, which it
// replaces itself with (execve, same argv and environment) for everything
// else. `go install ./cmd/bashbox` builds one full binary named bashbox.
const fullName = "bashbox-full"

// siblingOf returns the path of name in the directory of the running
// executable, as the kernel reports it (/proc/self/exe): never PATH, argv[0],
// the working directory or the environment, none of which a script's author
// should be able to point elsewhere.
func siblingOf(name string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(exe), name), nil
}

// frontExe is the binary a user runs: the lean front beside this full
// binary when there is one, else this binary.
func frontExe() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if filepath.Base(exe) == fullName {
		front := filepath.Join(filepath.Dir(exe), "bashbox")
		if fi, err := os.Stat(front); err == nil && fi.Mode().IsRegular() {
			return front, nil
		}
	}
	return exe, nil
}
