package basename_test

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/basename"
)

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{[]string{"basename", "/usr/bin/sort"}, "sort\n", "", 0},
		{[]string{"basename", "include/stdio.h", ".h"}, "stdio\n", "", 0},
		{[]string{"basename", "stdio.h", "stdio.h"}, "stdio.h\n", "", 0},
		{[]string{"basename", "a/b///"}, "b\n", "", 0},
		{[]string{"basename", "///"}, "/\n", "", 0},
		{[]string{"basename", ""}, "\n", "", 0},
		{[]string{"basename", "-a", "a/x", "b/y"}, "x\ny\n", "", 0},
		{[]string{"basename", "-s", ".c", "a.c", "b.c"}, "a\nb\n", "", 0},
		{[]string{"basename", "-z", "a/b"}, "b\x00", "", 0},
		{[]string{"basename", "--", "-x"}, "-x\n", "", 0},
		{[]string{"basename"}, "", "basename: missing operand\nTry 'basename --help' for more information.\n", 1},
		{[]string{"basename", "a", "b", "c"}, "", "basename: extra operand ‘c’\nTry 'basename --help' for more information.\n", 1},
	} {
		res := (&cmdtest.Env{}).Run(basename.Run, tc.args...)
		if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
