package du

import (
	"os"
	"sort"
	"strings"
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
	cmdtest.CompareWithHost(t, name, env, run, setup, sortLines, args...)
}

// sortLines makes the comparison independent of the host's directory
// order (ext4 hashes, the sandbox keeps creation order).
func sortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "")
}

func TestMain(m *testing.M) {
	code := m.Run()
	cmdtest.RemoveFixtures()
	os.Exit(code)
}
