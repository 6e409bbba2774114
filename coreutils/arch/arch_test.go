package arch

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestArch(t *testing.T) {
	r := (&cmdtest.Env{}).Run(Run, "arch")
	if r.Stdout != "x86_64\n" || r.Code != 0 {
		t.Errorf("arch: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "arch", "-a")
	if r.Code != 1 || r.Stderr != "arch: invalid option -- 'a'\nTry 'arch --help' for more information.\n" {
		t.Errorf("-a: %+v", r)
	}
}
