package file

import (
	"os"
	"regexp"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func compare(t *testing.T, name string, run builtins.Command, setup string, args ...string) {
	t.Helper()
	compareEnv(t, name, cmdtest.HostDiffEnv, run, setup, args...)
}

func compareEnv(t *testing.T, name string, env []string, run builtins.Command, setup string, args ...string) {
	t.Helper()
	cmdtest.CompareWithHost(t, name, env, run, setup, maskRecent, args...)
}

// recent matches the date of a file made while the test runs (symlinks,
// whose times the sandbox cannot set).
var recent = regexp.MustCompile(`[A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]`)

func maskRecent(s string) string { return recent.ReplaceAllString(s, "RECENT") }

func TestMain(m *testing.M) {
	code := m.Run()
	cmdtest.RemoveFixtures()
	os.Exit(code)
}
