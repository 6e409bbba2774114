package base32

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "base32")
	if r.Code != 0 || r.Stdout != "NBSWY3DPBI======\n" || r.Stderr != "" {
		t.Errorf("base32: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "base32", "--frob")
	if r.Code != 1 || r.Stderr != "base32: unrecognized option '--frob'\nTry 'base32 --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "base32", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
