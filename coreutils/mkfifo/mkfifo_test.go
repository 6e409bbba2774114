package mkfifo

import (
	"io/fs"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestMkfifo(t *testing.T) {
	env := []string{"LC_ALL=C.UTF-8"}
	e := &cmdtest.Env{Env: env, Files: map[string]string{"f": ""}}
	r := e.Run(Run, "mkfifo", "p", "f", "nodir/q")
	want := "mkfifo: cannot create fifo 'f': File exists\n" +
		"mkfifo: cannot create fifo 'nodir/q': No such file or directory\n"
	if r.Code != 1 || r.Stderr != want {
		t.Errorf("mkfifo: %+v", r)
	}
	fi, err := r.FS.Stat("/work/p")
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 || fi.Mode().Perm() != 0o644 {
		t.Errorf("p: %v %v, want a FIFO of mode 644 (a=rw less umask 022)", fi, err)
	}
	r = (&cmdtest.Env{Env: env}).Run(Run, "mkfifo", "-m", "u=rw,g=w", "q")
	if fi, err := r.FS.Stat("/work/q"); r.Code != 0 || err != nil || fi.Mode().Perm() != 0o626 {
		t.Errorf("-m: %+v %v %v", r, fi, err)
	}
	r = (&cmdtest.Env{Env: env}).Run(Run, "mkfifo")
	if r.Code != 1 || r.Stderr != "mkfifo: missing operand\nTry 'mkfifo --help' for more information.\n" {
		t.Errorf("no operand: %+v", r)
	}
	r = (&cmdtest.Env{Env: env}).Run(Run, "mkfifo", "-m", "abc", "p")
	if r.Code != 1 || r.Stderr != "mkfifo: invalid mode\n" {
		t.Errorf("bad mode: %+v", r)
	}
	r = (&cmdtest.Env{Env: env}).Run(Run, "mkfifo", "-m", "u+s", "p")
	if r.Code != 1 || r.Stderr != "mkfifo: mode must specify only file permission bits\n" {
		t.Errorf("setuid mode: %+v", r)
	}
}
