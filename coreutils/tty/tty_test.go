package tty

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestTTY(t *testing.T) {
	r := (&cmdtest.Env{}).Run(Run, "tty")
	if r.Stdout != "not a tty\n" || r.Code != 1 {
		t.Errorf("tty: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "tty", "-s")
	if r.Stdout != "" || r.Code != 1 {
		t.Errorf("-s: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "tty", "-x")
	if r.Code != 2 {
		t.Errorf("-x: %+v", r)
	}
}
