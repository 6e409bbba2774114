// Package which implements Debian's which (debianutils): print where each
// command is found on PATH, searching the sandbox filesystem (whose /bin
// and /usr/bin list the sandbox's commands).
package which

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// Run prints the path of each named command; status 1 if any is missing.
func Run(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	all := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		if a == "--help" || a == "--version" {
			if a == "--version" {
				return c.Version()
			}
			fmt.Fprintf(c.Stdout, "Usage: %s [-a] args\n", "/usr/bin/which")
			return 0
		}
		for _, ch := range a[1:] {
			if ch != 'a' {
				fmt.Fprintf(c.Stderr, "Illegal option -%c\nUsage: /usr/bin/which [-a] args\n", ch)
				return 2
			}
			all = true
		}
	}
	if len(args) == 0 {
		return 1
	}
	status := 0
	for _, name := range args {
		if !find(c, name, all) {
			status = 1
		}
	}
	return status
}

func executable(c *builtins.Call, p string) bool {
	fi, err := c.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

func find(c *builtins.Call, name string, all bool) bool {
	if strings.Contains(name, "/") {
		if executable(c, name) {
			fmt.Fprintln(c.Stdout, name)
			return true
		}
		return false
	}
	found := false
	for _, dir := range strings.Split(c.Getenv("PATH"), ":") {
		if dir == "" {
			dir = "."
		}
		p := path.Join(dir, name)
		if strings.HasPrefix(dir, "./") || dir == "." {
			p = dir + "/" + name
		}
		if executable(c, p) {
			fmt.Fprintln(c.Stdout, p)
			found = true
			if !all {
				return true
			}
		}
	}
	return found
}
