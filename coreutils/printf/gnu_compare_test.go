package printf

import (
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// gnuCase runs args both in the sandbox and with the real GNU tool (in a
// temporary directory holding the same files) and compares the output.
type gnuCase struct {
	files map[string]string
	stdin string
	args  []string
	env   []string
}

// gnuEnv is both sides' environment: a UTF-8 locale in UTC.
var gnuEnv = []string{"LC_ALL=C.UTF-8", "TZ=UTC", "PATH=/usr/bin:/bin"}

func compareGNU(t *testing.T, run builtins.Command, cases []gnuCase) {
	t.Helper()
	shared := make([]cmdtest.GNUCase, len(cases))
	for i, gc := range cases {
		shared[i] = cmdtest.GNUCase{Files: gc.files, Stdin: gc.stdin, Args: gc.args, Env: gc.env}
	}
	cmdtest.CheckGNUWith(t, run, gnuEnv, shared)
}
