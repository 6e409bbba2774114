// Package pathchk implements pathchk: check file names for validity and
// portability (-p: POSIX's portable characters and limits, -P: no empty
// names or leading hyphens).
package pathchk

import (
	"context"
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'p'}, {Short: 'P'}, {Long: "portability"},
}}

// Limits: POSIX's portable ones (-p), and Linux's otherwise.
const (
	posixPathMax = 255 // _POSIX_PATH_MAX less the terminating NUL
	posixNameMax = 14
	pathMax      = 4095
	nameMax      = 255
)

// Run checks each name; status 1 if any fails.
func Run(ctx context.Context, c *builtins.Call) int {
	help := "Usage: " + c.Name() + " [OPTION]... NAME...\n" +
		"Diagnose invalid or non-portable file names.\n\n" +
		"  -p                  check for most POSIX systems\n" +
		"  -P                  check for empty names and leading \"-\"\n" +
		"      --portability   check for all POSIX systems (equivalent to -p -P)\n" + utilcmd.Trailer()
	opts, operands, code, done := utilcmd.Parse(c, options, help, 1)
	if done {
		return code
	}
	basic, extra := false, false
	for _, o := range opts {
		switch o.Key {
		case "p":
			basic = true
		case "P":
			extra = true
		case "portability":
			basic, extra = true, true
		}
	}
	if len(operands) == 0 {
		return utilcmd.Fail(c, 1, "missing operand")
	}
	status := 0
	for _, name := range operands {
		if msg := check(c, name, basic, extra); msg != "" {
			c.Errorf("%s", msg)
			status = 1
		}
	}
	return status
}

func portable(ch byte) bool {
	return ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '_' || ch == '-' || ch == '/'
}

func check(c *builtins.Call, name string, basic, extra bool) string {
	af := func(s string) string { return utilcmd.AF(c, s) }
	if extra {
		for _, comp := range strings.Split(name, "/") {
			if strings.HasPrefix(comp, "-") {
				return "leading '-' in a component of file name " + af(name)
			}
		}
	}
	if (basic || extra) && name == "" {
		return "empty file name"
	}
	if basic {
		for i := 0; i < len(name); i++ {
			if !portable(name[i]) {
				return fmt.Sprintf("nonportable character %s in file name %s", utilcmd.Q(c, name[i:i+1]), af(name))
			}
		}
		if len(name) > posixPathMax {
			return fmt.Sprintf("limit %d exceeded by length %d of file name %s", posixPathMax, len(name), af(name))
		}
		for _, comp := range strings.Split(name, "/") {
			if len(comp) > posixNameMax {
				return fmt.Sprintf("limit %d exceeded by length %d of file name component %s", posixNameMax, len(comp), utilcmd.Q(c, comp))
			}
		}
		return ""
	}
	// The system's errors name the file as quotef does.
	f := func(s string) string { return utilcmd.F(c, s) }
	if name == "" {
		return f(name) + ": No such file or directory"
	}
	if len(name) > pathMax {
		return f(name) + ": File name too long"
	}
	for _, comp := range strings.Split(name, "/") {
		if len(comp) > nameMax {
			return f(name) + ": File name too long"
		}
	}
	return ""
}
