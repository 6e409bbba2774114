// Package lazyre compiles package-level regular expressions on first use.
//
// Every package linked into the bashbox binary initialises before main runs,
// whether or not the call uses it: a `bashbox run -c true` would otherwise
// compile the jq error patterns, the host tool's denylist and the server's
// validators on every start. A pattern wrapped here costs nothing until a
// caller asks for it.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call and returns
// the same *regexp.Regexp afterwards. Like regexp.MustCompile it panics on
// a bad expression, at first use; the expressions are constants of this
// program, and each package's tests call them.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
