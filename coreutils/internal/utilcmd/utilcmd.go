// Package utilcmd holds the helpers shared by the utility commands
// (checksums, base64/base32, expr, bc, date, printf, numfmt, shuf, tsort,
// factor and the system information commands): GNU-style usage exits and
// quoting for diagnostics. Their buffered output and help printing are
// textfmt's.
package utilcmd

import (
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// Trailer is the --help/--version part of a GNU coreutils help text.
func Trailer() string {
	return "      --help        display this help and exit\n" +
		"      --version     output version information and exit\n"
}

// Fail prints "NAME: message" and the --help hint, and returns status.
func Fail(c *builtins.Call, status int, format string, a ...any) int {
	c.Errorf(format, a...)
	return c.TryHelp(status)
}

// UTF8 reports whether the call's locale uses UTF-8.
func UTF8(c *builtins.Call) bool { return quote.UTF8Locale(c.Getenv) }

// Q quotes an argument as GNU's quote() does: ‘x’ in a UTF-8 locale.
func Q(c *builtins.Call, s string) string { return quote.New(c).Q(s) }

// F quotes a file name as quotef does: only when needed, shell style.
func F(c *builtins.Call, s string) string { return quote.New(c).F(s) }

// AF quotes a file name as quoteaf does: always, shell style.
func AF(c *builtins.Call, s string) string { return quote.New(c).AF(s) }
