package cksum

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "cksum")
	if r.Code != 0 || r.Stdout != "3015617425 6\n" || r.Stderr != "" {
		t.Errorf("cksum: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "cksum", "--frob")
	if r.Code != 1 || r.Stderr != "cksum: unrecognized option '--frob'\nTry 'cksum --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "cksum", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
