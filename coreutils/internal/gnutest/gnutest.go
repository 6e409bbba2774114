// Package gnutest runs the coreutils commands' comparisons with the host's
// GNU tools in one environment: a UTF-8 locale in UTC.
package gnutest

import (
	"regexp"
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

// Compare runs args in the sandbox and on the host over the same fixture
// (made by the shell script setup) in cmdtest's host environment, with the
// dates of files made during the test masked.
func Compare(t *testing.T, name string, run builtins.Command, setup string, args ...string) {
	t.Helper()
	CompareEnv(t, name, cmdtest.HostDiffEnv, run, setup, args...)
}

// CompareEnv is Compare in the environment env.
func CompareEnv(t *testing.T, name string, env []string, run builtins.Command, setup string, args ...string) {
	t.Helper()
	cmdtest.CompareWithHost(t, name, env, run, setup, MaskRecent, args...)
}

// recent matches the date of a file made while the test runs (symlinks,
// whose times the sandbox cannot set).
var recent = regexp.MustCompile(`[A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]`)

// MaskRecent replaces such dates with RECENT.
func MaskRecent(s string) string { return recent.ReplaceAllString(s, "RECENT") }

// Run runs a package's tests, removes the host fixtures they made and
// returns the exit code for the package's TestMain to exit with.
func Run(m *testing.M) int {
	code := m.Run()
	cmdtest.RemoveFixtures()
	return code
}
