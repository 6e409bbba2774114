package fold

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestFoldAgainstReal(t *testing.T) {
	cases := []tcase{
		{name: "default", args: []string{}, files: nil, stdin: "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\nshort\n", want: "00000000000000000000000000000000000000000000000000000000000000000000000000000000\n00000000000000000000\nshort\n"},
		{name: "width", args: []string{"-w", "10"}, files: nil, stdin: "the quick brown fox jumps over the lazy dog\n", want: "the quick \nbrown fox \njumps over\n the lazy \ndog\n"},
		{name: "spaces", args: []string{"-s", "-w", "10"}, files: nil, stdin: "the quick brown fox jumps over the lazy dog\n", want: "the quick \nbrown fox \njumps \nover the \nlazy dog\n"},
		{name: "tabs", args: []string{"-w", "6"}, files: nil, stdin: "a\tb\tc\td\te\n", want: "a\n\t\nb\n\t\nc\n\t\nd\n\t\ne\n"},
		{name: "bytes", args: []string{"-b", "-w", "6"}, files: nil, stdin: "a\tb\tc\td\te\n", want: "a\tb\tc\t\nd\te\n"},
		{name: "backspace cr", args: []string{"-w", "5"}, files: nil, stdin: "abcdef\bgh\rijklmnop\n", want: "abcde\nf\bgh\rijklm\nnop\n"},
		{name: "obsolete", args: []string{"-3"}, files: nil, stdin: "abcdefghij\n", want: "abc\ndef\nghi\nj\n"},
		{name: "grouped", args: []string{"-s4"}, files: nil, stdin: "ab cdefghij\n", want: "ab \ncdef\nghij\n"},
		{name: "no newline", args: []string{"-w", "3"}, files: nil, stdin: "abcdefg", want: "abc\ndef\ng"},
		{name: "bad width", args: []string{"-w", "0"}, files: nil, stdin: "", want: ""},
		{name: "bad width text", args: []string{"-w", "x"}, files: nil, stdin: "", want: ""},
		{name: "missing", args: []string{"-w", "2", "in", "nope"}, files: map[string]string{"in": "abc\n"}, stdin: "", want: "ab\nc\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"fold"}, tc.args...)...)
			if tc.want != "" && got.Stdout != tc.want {
				t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
			}
			out, errs, code, ok := runReal(t, "fold", tc)
			if !ok {
				return
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), real tool (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}
