package getopt

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestGetopt(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		out, errs string
		code      int
	}{
		{[]string{"-o", "ab:", "--", "-a", "x", "-bv"}, " -a -b 'v' -- 'x'\n", "", 0},
		{[]string{"-o", "a", "-l", "foo,fob", "--", "--fo"}, " --\n", "getopt: option '--fo' is ambiguous; possibilities: '--foo' '--fob'\n", 1},
		{[]string{"ab:", "-b", "1", "z"}, " -b 1 -- z\n", "", 0},
		{[]string{"-o", "+a", "--", "x", "-a"}, " -- 'x' '-a'\n", "", 0},
		{[]string{"-T"}, "", "", 4},
		{nil, "", "getopt: missing optstring argument\nTry 'getopt --help' for more information.\n", 2},
	} {
		e := cmdtest.Env{}
		r := e.Run(Run, append([]string{"getopt"}, tc.args...)...)
		if r.Stdout != tc.out || r.Stderr != tc.errs || r.Code != tc.code {
			t.Errorf("getopt %q = %q %q %d, want %q %q %d", tc.args, r.Stdout, r.Stderr, r.Code, tc.out, tc.errs, tc.code)
		}
	}
}
