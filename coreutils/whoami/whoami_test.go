package whoami

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestWhoami(t *testing.T) {
	r := (&cmdtest.Env{Env: []string{"USER=alice"}}).Run(Run, "whoami")
	if r.Stdout != "alice\n" || r.Code != 0 {
		t.Errorf("USER: %+v", r)
	}
	r = (&cmdtest.Env{Env: []string{}}).Run(Run, "whoami")
	if r.Stdout != "user\n" {
		t.Errorf("default: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "whoami", "x")
	if r.Code != 1 || r.Stderr != "whoami: extra operand \u2018x\u2019\nTry 'whoami --help' for more information.\n" {
		t.Errorf("extra operand: %+v", r)
	}
}
