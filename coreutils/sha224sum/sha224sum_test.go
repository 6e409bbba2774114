package sha224sum

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "sha224sum")
	if r.Code != 0 || r.Stdout != "2d6d67d91d0badcdd06cbbba1fe11538a68a37ec9c2e26457ceff12b  -\n" || r.Stderr != "" {
		t.Errorf("sha224sum: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha224sum", "--frob")
	if r.Code != 1 || r.Stderr != "sha224sum: unrecognized option '--frob'\nTry 'sha224sum --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha224sum", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
