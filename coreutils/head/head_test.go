package head

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("\n")
	}
	return b.String()
}

func TestHead(t *testing.T) {
	files := map[string]string{"f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "g": "a\nb"}
	tests := []struct {
		args []string
		out  string
		code int
	}{
		{[]string{"head", "-n", "2", "f"}, "1\n2\n", 0},
		{[]string{"head", "-3", "f"}, "1\n2\n3\n", 0},
		{[]string{"head", "-n", "-10", "f"}, "1\n2\n", 0},
		{[]string{"head", "-c", "3", "g"}, "a\nb", 0},
		{[]string{"head", "-c", "-2", "g"}, "a", 0},
		{[]string{"head", "-n1", "f", "g"}, "==> f <==\n1\n\n==> g <==\na\n", 0},
		{[]string{"head", "-qn1", "f", "g"}, "1\na\n", 0},
		{[]string{"head", "-n", "x", "f"}, "", 1},
	}
	for _, tt := range tests {
		env := cmdtest.Env{Files: files}
		r := env.Run(Run, tt.args...)
		if r.Stdout != tt.out || r.Code != tt.code {
			t.Errorf("%q: got %q %d (%q), want %q %d", tt.args, r.Stdout, r.Code, r.Stderr, tt.out, tt.code)
		}
	}
}

func TestHeadGNU(t *testing.T) {
	big := numbered(100000)
	files := map[string]string{
		"f":     numbered(30),
		"nonl":  "a\nb\nc",
		"z":     "a\x00b\x00c\x00d",
		"big":   big,
		"empty": "",
		"dir/":  "",
	}
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"f"}, {"-n", "5", "f"}, {"-n", "-5", "f"}, {"-n", "-0", "f"}, {"-n", "0", "f"},
		{"-c", "7", "f"}, {"-c", "-7", "f"}, {"-c", "-1000", "f"}, {"--bytes=1k", "big"},
		{"-n", "-3", "nonl"}, {"-n", "-1", "nonl"}, {"-n", "2", "nonl"}, {"-c", "-0", "nonl"},
		{"-z", "-n", "2", "z"}, {"-z", "-n", "-1", "z"}, {"-2z", "z"},
		{"-n", "-99990", "big"}, {"-n", "99990", "big"}, {"-c", "-300000", "big"},
		{"-5", "f"}, {"-5c", "f"}, {"-2k", "big"}, {"-3v", "f"}, {"-3q", "f", "nonl"}, {"-3x", "f"},
		{"f", "nonl", "empty"}, {"-v", "f"}, {"-q", "f", "nonl"}, {"--silent", "f", "nonl"},
		{"f", "nosuch", "nonl"}, {"nosuch"}, {"dir"}, {"f", "dir", "nonl"},
		{"-n", "x", "f"}, {"-c", "1y", "f"}, {"-n", "99999999999999999999999", "f"},
		{"-n", "1KiB", "f"}, {"--lines", "3", "f"}, {"--lines"}, {"-n"}, {"--frob"}, {"-n", "3", "-7", "f"},
		{"-", "f"}, {"-n", "+3", "f"}, {"-c", "", "f"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: files, Args: append([]string{"head"}, a...), Stdin: "s1\ns2\n"})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
