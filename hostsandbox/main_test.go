package hostsandbox

import (
	"os"
	"testing"
)

// probeEnv makes the test binary act as a probe program (see probe_linux_test.go)
// when it is started inside a sandbox by a test.
const probeEnv = "HOSTSANDBOX_TEST_PROBE"

func TestMain(m *testing.M) {
	ServeHelper()
	if what := os.Getenv(probeEnv); what != "" {
		os.Exit(runProbe(what))
	}
	os.Exit(m.Run())
}
