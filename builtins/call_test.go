package builtins

import (
	"runtime"
	"testing"
)

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

// TestSearchWorkers: a set Workers bounds a parallel command (1: none,
// sequential); unset, the command picks from the CPUs, never more than 4.
func TestSearchWorkers(t *testing.T) {
	for workers, want := range map[int]int{1: 0, -3: 0, 2: 2, 7: 7} {
		if got := (&Call{Workers: workers}).SearchWorkers(); got != want {
			t.Errorf("Workers %d: SearchWorkers() = %d, want %d", workers, got, want)
		}
	}
	if got := (&Call{}).SearchWorkers(); got == 1 || got > 4 || got > runtime.NumCPU() {
		t.Errorf("default SearchWorkers() = %d on %d CPUs", got, runtime.NumCPU())
	}
}
