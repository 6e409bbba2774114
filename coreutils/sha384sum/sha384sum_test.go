package sha384sum

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "sha384sum")
	if r.Code != 0 || r.Stdout != "1d0f284efe3edea4b9ca3bd514fa134b17eae361ccc7a1eefeff801b9bd6604e01f21f6bf249ef030599f0c218f2ba8c  -\n" || r.Stderr != "" {
		t.Errorf("sha384sum: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha384sum", "--frob")
	if r.Code != 1 || r.Stderr != "sha384sum: unrecognized option '--frob'\nTry 'sha384sum --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha384sum", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
