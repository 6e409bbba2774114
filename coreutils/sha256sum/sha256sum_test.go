package sha256sum

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "sha256sum")
	if r.Code != 0 || r.Stdout != "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  -\n" || r.Stderr != "" {
		t.Errorf("sha256sum: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha256sum", "--frob")
	if r.Code != 1 || r.Stderr != "sha256sum: unrecognized option '--frob'\nTry 'sha256sum --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha256sum", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
