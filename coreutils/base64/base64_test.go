package base64

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "base64")
	if r.Code != 0 || r.Stdout != "aGVsbG8K\n" || r.Stderr != "" {
		t.Errorf("base64: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "base64", "--frob")
	if r.Code != 1 || r.Stderr != "base64: unrecognized option '--frob'\nTry 'base64 --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "base64", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
