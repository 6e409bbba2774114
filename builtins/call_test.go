package builtins

import "testing"

func TestAbs(t *testing.T) {
	c := &Call{Dir: "/work"}
	root := &Call{Dir: "/"}
	for _, tc := range []struct {
		c        *Call
		in, want string
	}{
		{c, "a/b", "/work/a/b"},
		{c, "./a/b", "/work/a/b"},
		{c, ".//./a", "/work/a"},
		{c, "./", "/work/./"}, // the directory itself, trailing slash kept
		{c, ".", "/work/."},
		{c, "./../x", "/work/../x"},
		{c, "a/./b/", "/work/a/./b/"},
		{c, "/abs/./p", "/abs/./p"},
		{root, "./etc", "/etc"},
		{root, "etc/", "/etc/"},
	} {
		if got := tc.c.Abs(tc.in); got != tc.want {
			t.Errorf("Abs(%q) in %s = %q, want %q", tc.in, tc.c.Dir, got, tc.want)
		}
	}
}
