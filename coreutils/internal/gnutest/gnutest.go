// Package gnutest runs the coreutils commands' comparisons with the host's
// GNU tools in one environment: a UTF-8 locale in UTC.
package gnutest

import (
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// Env is both sides' environment.
var Env = []string{"LC_ALL=C.UTF-8", "TZ=UTC", "PATH=/usr/bin:/bin"}

// Check runs each case in the sandbox and with the real tool (in a
// temporary directory holding the same files) and reports differences.
func Check(t testing.TB, run builtins.Command, cases []cmdtest.GNUCase) {
	t.Helper()
	cmdtest.CheckGNUWith(t, run, Env, cases)
}
