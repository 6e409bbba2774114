package tac

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestTacAgainstReal(t *testing.T) {
	cases := []tcase{
		{name: "lines", args: []string{}, files: nil, stdin: "a\nb\nc\n", want: "c\nb\na\n"},
		{name: "no newline", args: []string{}, files: nil, stdin: "a\nb\nc", want: "cb\na\n"},
		{name: "before", args: []string{"-b"}, files: nil, stdin: "a\nb\nc\n", want: "\n\nc\nba"},
		{name: "separator", args: []string{"-s", ","}, files: nil, stdin: "a,b,c,", want: "c,b,a,"},
		{name: "multichar", args: []string{"-s", "::"}, files: nil, stdin: "one::two::three", want: "threetwo::one::"},
		{name: "regex", args: []string{"-r", "-s", "[0-9]+"}, files: nil, stdin: "a12b345c", want: "c54b32a1"},
		{name: "regex caret", args: []string{"-r", "-s", "^a"}, files: nil, stdin: "xa\nb\nab", want: "bxa\nb\na"},
		{name: "regex alternation", args: []string{"-r", "-s", "1\\|2"}, files: nil, stdin: "a1b2c", want: "cb2a1"},
		{name: "files", args: []string{"a", "-", "b"}, files: map[string]string{"a": "1\n2\n", "b": "3\n4\n"}, stdin: "x\ny\n", want: "2\n1\ny\nx\n4\n3\n"},
		{name: "missing", args: []string{"a", "nope"}, files: map[string]string{"a": "1\n"}, stdin: "", want: "1\n"},
		{name: "bad regex", args: []string{"-r", "-s", "\\("}, files: nil, stdin: "", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"tac"}, tc.args...)...)
			if tc.want != "" && got.Stdout != tc.want {
				t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
			}
			out, errs, code, ok := runReal(t, "tac", tc)
			if !ok {
				return
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), real tool (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}
