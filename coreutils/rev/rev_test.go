package rev

import (
	"bytes"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRev(t *testing.T) {
	cases := []tcase{
		{name: "stdin", stdin: "abc\nhello world\n", want: "cba\ndlrow olleh\n"},
		{name: "no trailing newline", stdin: "abc\nxy", want: "cba\nyx"},
		{name: "utf8", stdin: "héllo\nñandú\n", want: "olléh\núdnañ\n"},
		{name: "files", args: []string{"a", "b"}, files: map[string]string{"a": "12\n", "b": "34\n56"}, want: "21\n43\n65"},
		{name: "missing", args: []string{"a", "nope", "b"}, files: map[string]string{"a": "12\n", "b": "34\n"}, want: "21\n43\n"},
		{name: "invalid utf8", stdin: "ab\ncd\xffe\nfg\n", want: "ba\n"},
		{name: "crlf", stdin: "ab\r\n", want: "\rba\n"},
		{name: "empty lines", stdin: "\n\nx\n", want: "\n\nx\n"},
		{name: "bad option", args: []string{"-Q"}},
		{name: "bad long option", args: []string{"--frob"}},
		{name: "dash is a file", args: []string{"-"}, stdin: "abc\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"rev"}, tc.args...)...)
			out, errs, code, ok := runReal(t, "rev", tc)
			if !ok {
				if tc.want != "" && got.Stdout != tc.want {
					t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
				}
				return
			}
			if tc.want != "" && out != tc.want {
				t.Fatalf("real rev printed %q, table says %q", out, tc.want)
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}

func TestHelpVersion(t *testing.T) {
	env := cmdtest.Env{}
	if r := env.Run(Run, "rev", "--help"); r.Code != 0 || !bytes.Contains([]byte(r.Stdout), []byte("Usage: rev")) {
		t.Errorf("--help: %+v", r)
	}
	if r := env.Run(Run, "rev", "-V"); r.Code != 0 || r.Stdout == "" {
		t.Errorf("-V: %+v", r)
	}
}
