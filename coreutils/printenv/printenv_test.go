package printenv

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestPrintenv(t *testing.T) {
	env := []string{"A=1", "B=two words", "EMPTY="}
	for _, tc := range []struct {
		args   []string
		out    string
		errOut string
		code   int
	}{
		{nil, "A=1\nB=two words\nEMPTY=\n", "", 0},
		{[]string{"B"}, "two words\n", "", 0},
		{[]string{"A", "NOPE", "EMPTY"}, "1\n\n", "", 1},
		{[]string{"A=1"}, "", "", 1},
		{[]string{"-0", "A", "B"}, "1\x00two words\x00", "", 0},
		{[]string{"--null"}, "A=1\x00B=two words\x00EMPTY=\x00", "", 0},
		{[]string{"-x"}, "", "printenv: invalid option -- 'x'\nTry 'printenv --help' for more information.\n", 2},
		{[]string{"--", "A"}, "1\n", "", 0},
	} {
		r := (&cmdtest.Env{Env: env}).Run(Run, append([]string{"printenv"}, tc.args...)...)
		if r.Stdout != tc.out || r.Stderr != tc.errOut || r.Code != tc.code {
			t.Errorf("printenv %q: got %q %q %d", tc.args, r.Stdout, r.Stderr, r.Code)
		}
	}
}
