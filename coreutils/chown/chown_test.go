package chown_test

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/chown"
)

func TestChownRecordsOwners(t *testing.T) {
	e := &cmdtest.Env{Files: map[string]string{"f": "x", "d/g": "y", "l": "->f"}}
	fsys := e.NewFS()
	for _, args := range [][]string{{"chown", "root:root", "f"}, {"chown", "-R", "7:8", "d"}, {"chown", "-h", "9", "l"}} {
		if r := e.RunIn(fsys, chown.Run, args...); r.Code != 0 {
			t.Fatalf("%q: %d %q", args, r.Code, r.Stderr)
		}
	}
	r := e.RunIn(fsys, chown.RunChgrp, "chgrp", "-v", "user", "f")
	if r.Stdout != "changed group of 'f' from root to user\n" {
		t.Fatalf("chgrp -v: %q %q", r.Stdout, r.Stderr)
	}
	type owned interface {
		Owner(name string) (int, int, bool)
	}
	for name, want := range map[string][2]int{"/work/f": {0, 1000}, "/work/d": {7, 8}, "/work/d/g": {7, 8}, "/work/l": {9, -1}} {
		u, g, ok := fsys.(owned).Owner(name)
		if !ok || u != want[0] || g != want[1] {
			t.Errorf("%s: %d:%d %v, want %v", name, u, g, ok, want)
		}
	}
}

func TestChownErrors(t *testing.T) {
	e := &cmdtest.Env{Files: map[string]string{"f": "x"}}
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"chown", "bob", "f"}, "chown: invalid user: ‘bob’\n"},
		{[]string{"chown", "root:bob", "f"}, "chown: invalid group: ‘root:bob’\n"},
		{[]string{"chown", "root", "nosuch"}, "chown: cannot access 'nosuch': No such file or directory\n"},
		{[]string{"chown", "root"}, "chown: missing operand after ‘root’\nTry 'chown --help' for more information.\n"},
	} {
		run := chown.Run
		r := e.Run(run, tc.args...)
		if r.Code != 1 || r.Stderr != tc.err {
			t.Errorf("%q: %d %q", tc.args, r.Code, r.Stderr)
		}
	}
}
