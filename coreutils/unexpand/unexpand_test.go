package unexpand

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestUnexpandAgainstReal(t *testing.T) {
	cases := []tcase{
		{name: "default", args: []string{}, files: nil, stdin: "        eight spaces\n    four    four\n                 x  y        z\n", want: "\teight spaces\n    four    four\n\t\t x  y        z\n"},
		{name: "all", args: []string{"-a"}, files: nil, stdin: "a       b       c\n    four    four  two\n", want: "a\tb\tc\n    four    four  two\n"},
		{name: "size", args: []string{"-t", "4"}, files: nil, stdin: "ab  cd  ef      gh\n    x\n", want: "ab\tcd\tef\t\tgh\n\tx\n"},
		{name: "first only", args: []string{"-t", "4", "--first-only"}, files: nil, stdin: "ab  cd  ef      gh\n    x\n", want: "ab  cd  ef      gh\n\tx\n"},
		{name: "list", args: []string{"-t", "3,8"}, files: nil, stdin: "a         b    c\n", want: "a\t\t  b    c\n"},
		{name: "obsolete", args: []string{"-3"}, files: nil, stdin: "a         b    c\n      x\n", want: "a         b    c\n\t\tx\n"},
		{name: "tabs in input", args: []string{"-a"}, files: nil, stdin: " \t  a \t b\n", want: "\t  a\t b\n"},
		{name: "zero", args: []string{"-t", "0"}, files: nil, stdin: "", want: ""},
		{name: "missing", args: []string{"nope"}, files: nil, stdin: "", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"unexpand"}, tc.args...)...)
			if tc.want != "" && got.Stdout != tc.want {
				t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
			}
			out, errs, code, ok := runReal(t, "unexpand", tc)
			if !ok {
				return
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), real tool (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}
