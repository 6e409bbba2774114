package strings

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestStringsAgainstReal(t *testing.T) {
	cases := []tcase{
		{name: "default", args: []string{}, files: nil, stdin: "ab\u0000abcd\tef\u0001hello world\nxyz1234\u0080\u00e9longer text\u0000tail", want: "abcd\tef\nhello world\nxyz1234\nlonger text\ntail\n"},
		{name: "min", args: []string{"-n", "3"}, files: nil, stdin: "ab\u0000abc\u0000abcdef\u0000", want: "abc\nabcdef\n"},
		{name: "obsolete min", args: []string{"-6"}, files: nil, stdin: "ab\u0000abc\u0000abcdef\u0000", want: "abcdef\n"},
		{name: "radix d", args: []string{"-t", "d"}, files: nil, stdin: "xx\u0001hello\u0002world!!\u0003", want: "      3 hello\n      9 world!!\n"},
		{name: "radix x", args: []string{"-t", "x"}, files: nil, stdin: "xx\u0001hello\u0002world!!\u0003", want: "      3 hello\n      9 world!!\n"},
		{name: "radix o", args: []string{"-o"}, files: nil, stdin: "xx\u0001hello\u0002world!!\u0003", want: "      3 hello\n     11 world!!\n"},
		{name: "file names", args: []string{"-f", "a", "b"}, files: map[string]string{"a": "first\u0000second", "b": "third"}, stdin: "", want: "a: first\na: second\nb: third\n"},
		{name: "stdin name", args: []string{"-f"}, files: nil, stdin: "piped", want: "{standard input}: piped\n"},
		{name: "separator", args: []string{"-s", "|"}, files: nil, stdin: "first\u0000second", want: "first|second|"},
		{name: "whitespace", args: []string{"-w"}, files: nil, stdin: "one\ntwo\n\u00e9abcd\u0001", want: "one\ntwo\n\nabcd\n"},
		{name: "8-bit", args: []string{"-e", "S"}, files: nil, stdin: "one\ntwo\n\u00e9\u00eaabcd\u0001", want: "\u00e9\u00eaabcd\n"},
		{name: "utf16le", args: []string{"-e", "l"}, files: nil, stdin: "a\u0000b\u0000c\u0000d\u0000e\u0000\u0000\u0000x\u0000y\u0000z\u0000w\u0000", want: "abcde\nxyzw\n"},
		{name: "utf16be", args: []string{"-e", "b"}, files: nil, stdin: "\u0000a\u0000b\u0000c\u0000d", want: "abcd\n"},
		{name: "missing dir", args: []string{"a", "nope", "d"}, files: map[string]string{"a": "abcd", "d/": ""}, stdin: "", want: "abcd\n"},
		{name: "bad min", args: []string{"-n", "0"}, files: nil, stdin: "", want: ""},
		{name: "bad int", args: []string{"-n", "x"}, files: nil, stdin: "", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"strings"}, tc.args...)...)
			if tc.want != "" && got.Stdout != tc.want {
				t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
			}
			out, errs, code, ok := runReal(t, "strings", tc)
			if !ok {
				return
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), real tool (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}
