package users

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestUsers(t *testing.T) {
	r := (&cmdtest.Env{}).Run(Run, "users")
	if r.Code != 0 || r.Stdout != "" {
		t.Errorf("users: %+v", r)
	}
	r = (&cmdtest.Env{Env: []string{"LC_ALL=C.UTF-8"}}).Run(Run, "users", "a", "b")
	if r.Code != 1 || r.Stderr != "users: extra operand \u2018b\u2019\nTry 'users --help' for more information.\n" {
		t.Errorf("extra operand: %+v", r)
	}
}
