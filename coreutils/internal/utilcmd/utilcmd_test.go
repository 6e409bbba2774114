package utilcmd

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

func TestQuotes(t *testing.T) {
	c := &builtins.Call{Args: []string{"x"}, Env: []string{"LC_ALL=C.UTF-8"}}
	if Q(c, "a") != "\u2018a\u2019" || F(c, "a b") != "'a b'" || AF(c, "a") != "'a'" {
		t.Errorf("quotes: %s %s %s", Q(c, "a"), F(c, "a b"), AF(c, "a"))
	}
	if !strings.Contains(Trailer(), "--help") {
		t.Error("trailer")
	}
}

func TestNoOptionsAndOperands(t *testing.T) {
	run := func(min, max int, args ...string) (string, string, int) {
		var out, errb strings.Builder
		c := &builtins.Call{Args: append([]string{"cmd"}, args...), Env: []string{"LC_ALL=C"}, Stdout: &out, Stderr: &errb}
		ops, st, done := NoOptions(c, "HELP\n", 3, false)
		if !done {
			st, _ = Operands(c, ops, min, max, 4)
		}
		return out.String(), errb.String(), st
	}
	for _, tc := range []struct {
		min, max int
		args     []string
		out, err string
		status   int
	}{
		{0, 0, []string{"--help"}, "HELP\n", "", 0},
		{0, 0, []string{"--bogus"}, "", "cmd: unrecognized option '--bogus'\nTry 'cmd --help' for more information.\n", 3},
		{2, 2, nil, "", "cmd: missing operand\nTry 'cmd --help' for more information.\n", 4},
		{2, 2, []string{"a"}, "", "cmd: missing operand after 'a'\nTry 'cmd --help' for more information.\n", 4},
		{2, 2, []string{"a", "b", "c"}, "", "cmd: extra operand 'c'\nTry 'cmd --help' for more information.\n", 4},
		{1, -1, []string{"a", "b", "c"}, "", "", 0},
	} {
		out, err, st := run(tc.min, tc.max, tc.args...)
		if out != tc.out || err != tc.err || st != tc.status {
			t.Errorf("%v: got %q %q %d", tc.args, out, err, st)
		}
	}
}
