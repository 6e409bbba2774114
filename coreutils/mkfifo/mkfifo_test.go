package mkfifo

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestMkfifo(t *testing.T) {
	env := []string{"LC_ALL=C.UTF-8"}
	r := (&cmdtest.Env{Env: env, Files: map[string]string{"f": ""}}).Run(Run, "mkfifo", "p", "f", "nodir/q")
	want := "mkfifo: cannot create fifo 'p': Operation not supported\n" +
		"mkfifo: cannot create fifo 'f': File exists\n" +
		"mkfifo: cannot create fifo 'nodir/q': No such file or directory\n"
	if r.Code != 1 || r.Stderr != want {
		t.Errorf("mkfifo: %+v", r)
	}
	r = (&cmdtest.Env{Env: env}).Run(Run, "mkfifo")
	if r.Code != 1 || r.Stderr != "mkfifo: missing operand\nTry 'mkfifo --help' for more information.\n" {
		t.Errorf("no operand: %+v", r)
	}
	r = (&cmdtest.Env{Env: env}).Run(Run, "mkfifo", "-m", "abc", "p")
	if r.Code != 1 || r.Stderr != "mkfifo: invalid mode\n" {
		t.Errorf("bad mode: %+v", r)
	}
}
