package expand

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestExpandAgainstReal(t *testing.T) {
	cases := []tcase{
		{name: "default", args: []string{}, files: nil, stdin: "a\tb\tc\n\tx\t\ty\n12345678\tq\n", want: "a       b       c\n        x               y\n12345678        q\n"},
		{name: "size", args: []string{"-t", "4"}, files: nil, stdin: "a\tb\tc\td\n", want: "a   b   c   d\n"},
		{name: "list", args: []string{"-t", "2,5,9"}, files: nil, stdin: "a\tb\tc\td\te\n", want: "a b  c   d e\n"},
		{name: "extend", args: []string{"-t", "3,/5"}, files: nil, stdin: "a\tb\tc\td\te\n", want: "a  b c    d    e\n"},
		{name: "increment", args: []string{"-t", "3,+5"}, files: nil, stdin: "a\tb\tc\td\te\n", want: "a  b    c    d    e\n"},
		{name: "obsolete", args: []string{"-4,6"}, files: nil, stdin: "a\tb\tc\td\n", want: "a   b c d\n"},
		{name: "initial", args: []string{"-i"}, files: nil, stdin: "\ta\tb\n  \t c\td\n", want: "        a\tb\n         c\td\n"},
		{name: "backspace", args: []string{}, files: nil, stdin: "ab\bc\td\n", want: "ab\bc      d\n"},
		{name: "files", args: []string{"a", "b", "b"}, files: map[string]string{"a": "x\ty\n", "b": "p\tq"}, stdin: "", want: "x       y\np       qp      q"},
		{name: "zero", args: []string{"-t", "0"}, files: nil, stdin: "", want: ""},
		{name: "descending", args: []string{"-t", "4,2"}, files: nil, stdin: "", want: ""},
		{name: "invalid", args: []string{"-t", "x"}, files: nil, stdin: "", want: ""},
		{name: "slash", args: []string{"-t", "1/2"}, files: nil, stdin: "", want: ""},
		{name: "missing", args: []string{"in", "nope"}, files: map[string]string{"in": "a\tb\n"}, stdin: "", want: "a       b\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"expand"}, tc.args...)...)
			if tc.want != "" && got.Stdout != tc.want {
				t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
			}
			out, errs, code, ok := runReal(t, "expand", tc)
			if !ok {
				return
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), real tool (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}
