//go:build !bashbox_front && !unix

package main

import (
	"fmt"
	"io"
)

// daemonCommand: the launcher and its daemon are Unix programs (a Unix
// socket carrying descriptors).
func daemonCommand(_ []string, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "bashbox daemon: not supported on this system")
	return 1
}
