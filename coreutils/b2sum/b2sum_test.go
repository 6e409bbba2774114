package b2sum

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "b2sum")
	if r.Code != 0 || r.Stdout != "f60ce482e5cc1229f39d71313171a8d9f4ca3a87d066bf4b205effb528192a75f14f3271e2c1a90e1de53f275b4d4793eef2f5e31ea90d2ce29d2e481c36435f  -\n" || r.Stderr != "" {
		t.Errorf("b2sum: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "b2sum", "--frob")
	if r.Code != 1 || r.Stderr != "b2sum: unrecognized option '--frob'\nTry 'b2sum --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "b2sum", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
