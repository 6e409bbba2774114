package fallback_test

import (
	"os"
	"testing"

	"github.com/bashbox/bashbox/hostsandbox"
)

// TestMain makes the test binary the sandbox helper, as cmd/bashbox is:
// the helper applies Landlock and the rlimits inside the sandbox.
func TestMain(m *testing.M) {
	hostsandbox.ServeHelper()
	os.Exit(m.Run())
}
