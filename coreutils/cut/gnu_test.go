package cut

import (
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// gnuCase is a differential case against the real GNU tool (see
// cmdtest.CheckGNU).
type gnuCase struct {
	files map[string]string
	stdin string
	args  []string
	env   []string
}

func checkGNU(t *testing.T, run builtins.Command, cases []gnuCase) {
	t.Helper()
	shared := make([]cmdtest.GNUCase, len(cases))
	for i, gc := range cases {
		shared[i] = cmdtest.GNUCase{Files: gc.files, Stdin: gc.stdin, Args: gc.args, Env: gc.env}
	}
	cmdtest.CheckGNU(t, run, shared)
}
