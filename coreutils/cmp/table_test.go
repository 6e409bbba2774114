package cmp_test

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/cmp"
)

func TestTable(t *testing.T) {
	files := map[string]string{"a": "abc\ndef\n", "b": "abc\ndxf\n", "c": "abc\n", "d": "ab", "e": ""}
	tests := []struct {
		args     []string
		env      []string
		out, err string
		code     int
	}{
		{args: []string{"a", "b"}, out: "a b differ: byte 6, line 2\n", code: 1},
		{args: []string{"a", "b"}, env: []string{"LC_ALL=C"}, out: "a b differ: char 6, line 2\n", code: 1},
		{args: []string{"a", "a"}},
		{args: []string{"a", "c"}, err: "cmp: EOF on c after byte 4, line 1\n", code: 1},
		{args: []string{"d", "a"}, err: "cmp: EOF on d after byte 2, in line 1\n", code: 1},
		{args: []string{"e", "a"}, err: "cmp: EOF on e which is empty\n", code: 1},
		{args: []string{"-l", "a", "b"}, out: "6 145 170\n", code: 1},
		{args: []string{"-b", "a", "b"}, out: "a b differ: byte 6, line 2 is 145 e 170 x\n", code: 1},
		{args: []string{"-s", "a", "b"}, code: 1},
		{args: []string{"-n", "5", "a", "b"}},
		{args: []string{"-i", "6", "a", "b"}},
		{args: []string{"a", "nosuch"}, err: "cmp: nosuch: No such file or directory\n", code: 2},
		{args: []string{"-l", "-s", "a", "b"}, err: "cmp: options -l and -s are incompatible\ncmp: Try 'cmp --help' for more information.\n", code: 2},
		{args: []string{}, err: "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n", code: 2},
	}
	for _, tc := range tests {
		env := cmdtest.Env{Files: files, Env: tc.env}
		if env.Env == nil {
			env.Env = []string{"LANG=C.UTF-8"}
		}
		r := env.Run(cmp.Run, append([]string{"cmp"}, tc.args...)...)
		if r.Stdout != tc.out || r.Stderr != tc.err || r.Code != tc.code {
			t.Errorf("cmp %q: got (%d) %q %q, want (%d) %q %q", tc.args, r.Code, r.Stdout, r.Stderr, tc.code, tc.out, tc.err)
		}
	}
}
