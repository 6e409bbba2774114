package sync

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestSync(t *testing.T) {
	env := []string{"LC_ALL=C.UTF-8"}
	r := (&cmdtest.Env{Env: env, Files: map[string]string{"f": "x"}}).Run(Run, "sync", "f")
	if r.Code != 0 || r.Stderr != "" {
		t.Errorf("sync f: %+v", r)
	}
	r = (&cmdtest.Env{Env: env}).Run(Run, "sync", "nope")
	if r.Code != 1 || r.Stderr != "sync: error opening 'nope': No such file or directory\n" {
		t.Errorf("sync nope: %+v", r)
	}
	r = (&cmdtest.Env{Env: env}).Run(Run, "sync", "-d")
	if r.Code != 1 || r.Stderr != "sync: --data needs at least one argument\n" {
		t.Errorf("sync -d: %+v", r)
	}
}
