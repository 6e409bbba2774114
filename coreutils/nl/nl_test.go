package nl

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestNlAgainstReal(t *testing.T) {
	cases := []tcase{
		{name: "default", args: []string{}, files: nil, stdin: "one\ntwo\n\nthree\n", want: "     1\tone\n     2\ttwo\n       \n     3\tthree\n"},
		{name: "all ln", args: []string{"-ba", "-nln"}, files: nil, stdin: "a\n\nb\n", want: "1     \ta\n2     \t\n3     \tb\n"},
		{name: "rz width sep", args: []string{"-ba", "-nrz", "-w3", "-s", ": "}, files: nil, stdin: "a\n\nb\n", want: "001: a\n002: \n003: b\n"},
		{name: "regex", args: []string{"-bpan\\|ch"}, files: nil, stdin: "apple\nbanana\ncherry\n", want: "       apple\n     1\tbanana\n     2\tcherry\n"},
		{name: "start incr", args: []string{"-v", "10", "-i", "5"}, files: nil, stdin: "x\ny\nz\n", want: "    10\tx\n    15\ty\n    20\tz\n"},
		{name: "join blank", args: []string{"-ba", "-l2"}, files: nil, stdin: "a\n\n\n\nb\n\n\n", want: "     1\ta\n       \n     2\t\n       \n     3\tb\n       \n     4\t\n"},
		{name: "sections", args: []string{"-ha", "-fa"}, files: nil, stdin: "\\:\\:\\:\nhead\n\\:\\:\nbody\n\\:\nfoot\n", want: "\n     1\thead\n\n     1\tbody\n\n     1\tfoot\n"},
		{name: "no renumber", args: []string{"-p"}, files: nil, stdin: "a\n\\:\\:\nb\n", want: "     1\ta\n\n     2\tb\n"},
		{name: "delimiter", args: []string{"-d", "@@", "-ha"}, files: nil, stdin: "a\n@@\nb\n@@@@@@\nc\n", want: "     1\ta\n\n       b\n\n     1\tc\n"},
		{name: "no newline", args: []string{}, files: nil, stdin: "a\nb", want: "     1\ta\n     2\tb\n"},
		{name: "bad style", args: []string{"-b", "x"}, files: nil, stdin: "", want: ""},
		{name: "bad format", args: []string{"-n", "xx"}, files: nil, stdin: "", want: ""},
		{name: "bad width", args: []string{"-w", "0"}, files: nil, stdin: "", want: ""},
		{name: "bad regex", args: []string{"-bp\\("}, files: nil, stdin: "", want: ""},
		{name: "missing", args: []string{"in", "nope"}, files: map[string]string{"in": "a\n"}, stdin: "", want: "     1\ta\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"nl"}, tc.args...)...)
			if tc.want != "" && got.Stdout != tc.want {
				t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
			}
			out, errs, code, ok := runReal(t, "nl", tc)
			if !ok {
				return
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), real tool (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}
