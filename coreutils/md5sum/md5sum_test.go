package md5sum

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "md5sum")
	if r.Code != 0 || r.Stdout != "b1946ac92492d2347c6235b4d2611184  -\n" || r.Stderr != "" {
		t.Errorf("md5sum: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "md5sum", "--frob")
	if r.Code != 1 || r.Stderr != "md5sum: unrecognized option '--frob'\nTry 'md5sum --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "md5sum", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
