package dc

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestDC(t *testing.T) {
	for _, tc := range []struct{ script, out, errs string }{
		{"2k 1 3 / p", ".33\n", ""},
		{"16o 255 p", "FF\n", ""},
		{"0 [1 + d 1000 >l]sl ll x p", "1000\n", ""},
		{"p", "", "dc: stack empty\n"},
		{"1 0 / f", "0\n1\n", "dc: divide by zero\n"},
	} {
		e := cmdtest.Env{}
		r := e.Run(Run, "dc", "-e", tc.script)
		if r.Stdout != tc.out || r.Stderr != tc.errs {
			t.Errorf("dc -e %q = %q %q, want %q %q", tc.script, r.Stdout, r.Stderr, tc.out, tc.errs)
		}
	}
}
