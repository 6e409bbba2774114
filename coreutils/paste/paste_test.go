package paste

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestPaste(t *testing.T) {
	files := map[string]string{"a": "1\n2\n3\n", "b": "x\ny\n"}
	tests := []struct {
		args  []string
		stdin string
		out   string
		code  int
	}{
		{[]string{"paste", "a", "b"}, "", "1\tx\n2\ty\n3\t\n", 0},
		{[]string{"paste", "-d,", "a", "b"}, "", "1,x\n2,y\n3,\n", 0},
		{[]string{"paste", "-s", "a", "b"}, "", "1\t2\t3\nx\ty\n", 0},
		{[]string{"paste", "-", "-"}, "1\n2\n3\n", "1\t2\n3\t\n", 0},
		{[]string{"paste", "-sd", `\0`, "a"}, "", "123\n", 0},
		{[]string{"paste", "-d", `a\`, "a"}, "", "", 1},
	}
	for _, tt := range tests {
		env := cmdtest.Env{Files: files, Stdin: tt.stdin}
		r := env.Run(Run, tt.args...)
		if r.Stdout != tt.out || r.Code != tt.code {
			t.Errorf("%q: got %q %d (%q), want %q %d", tt.args, r.Stdout, r.Code, r.Stderr, tt.out, tt.code)
		}
	}
}

func TestPasteGNU(t *testing.T) {
	files := map[string]string{
		"a":     "1\n2\n3\n",
		"b":     "x\ny\n",
		"c":     "only\n",
		"nonl":  "p\nq",
		"empty": "",
		"z":     "a\x00b\x00c",
		"long":  strings.Repeat("w", 200000) + "\nend\n",
		"dir/":  "",
	}
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"a", "b"}, {"b", "a"}, {"a", "b", "c"}, {"c", "a", "b"}, {"empty", "a"}, {"a", "empty"}, {"empty"}, {"nonl", "a"}, {"a", "nonl"},
		{"-d", ",", "a", "b", "c"}, {"-d", ",;", "a", "b", "c"}, {"-d", `\n`, "a", "b"}, {"-d", `\t\\x`, "a", "b", "c"},
		{"-d", "", "a", "b"}, {"-d", `\0`, "a", "b"}, {"-d", `a\`, "a"}, {"-d", `\`, "a"}, {"-d", `\0,`, "a", "b", "c", "a"},
		{"-s", "a", "b"}, {"-s", "-d", ",;", "a", "b", "nonl", "empty"}, {"-s", "empty"}, {"-s", "nonl"}, {"-s", "-d", `\0`, "a"},
		{"-", "-"}, {"-", "-", "-"}, {"a", "-", "b"}, {"-s", "-"}, {"-s", "a", "-"}, {"-"}, {},
		{"-z", "z", "a"}, {"-zs", "z"}, {"long", "a"}, {"-s", "long"},
		{"a", "nosuch"}, {"-s", "a", "nosuch", "b"}, {"dir"}, {"a", "dir"}, {"-s", "dir", "a"},
		{"--frob"}, {"-x"}, {"-d"}, {"--delimiters=:", "a", "b"}, {"--serial", "a"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: files, Args: append([]string{"paste"}, a...), Stdin: "s1\ns2\ns3\ns4\ns5"})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
