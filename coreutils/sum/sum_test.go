package sum

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "sum")
	if r.Code != 0 || r.Stdout != "36979     1\n" || r.Stderr != "" {
		t.Errorf("sum: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sum", "--frob")
	if r.Code != 1 || r.Stderr != "sum: unrecognized option '--frob'\nTry 'sum --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sum", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
