package dirname_test

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/dirname"
)

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{[]string{"dirname", "/usr/bin/"}, "/usr\n", "", 0},
		{[]string{"dirname", "a", "a/b", "/a", "/", "//", "a//b//", "a/./b", ""}, ".\na\n/\n/\n/\na\na/.\n.\n", "", 0},
		{[]string{"dirname", "-z", "a/b", "c"}, "a\x00.\x00", "", 0},
		{[]string{"dirname"}, "", "dirname: missing operand\nTry 'dirname --help' for more information.\n", 1},
		{[]string{"dirname", "--bogus"}, "", "dirname: unrecognized option '--bogus'\nTry 'dirname --help' for more information.\n", 1},
	} {
		res := (&cmdtest.Env{}).Run(dirname.Run, tc.args...)
		if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", tc.args, res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
		}
	}
}
