package wc

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestWc(t *testing.T) {
	files := map[string]string{"a": "one two\nthree\n", "b": "x"}
	tests := []struct {
		args []string
		out  string
		code int
	}{
		{[]string{"wc", "a"}, " 2  3 14 a\n", 0},
		{[]string{"wc", "-l", "a"}, "2 a\n", 0},
		{[]string{"wc", "a", "b"}, " 2  3 14 a\n 0  1  1 b\n 2  4 15 total\n", 0},
		{[]string{"wc"}, "      1       2       6\n", 0},
		{[]string{"wc", "-c"}, "6\n", 0},
		{[]string{"wc", "nosuch"}, "", 1},
	}
	for _, tt := range tests {
		env := cmdtest.Env{Files: files, Stdin: "hi yo\n"}
		r := env.Run(Run, tt.args...)
		if r.Stdout != tt.out || r.Code != tt.code {
			t.Errorf("%q: got %q %d (%q), want %q %d", tt.args, r.Stdout, r.Code, r.Stderr, tt.out, tt.code)
		}
	}
}

func TestWcGNU(t *testing.T) {
	files := map[string]string{
		"u":     "héllo wörld\n日本語 text\tx\n\u00a0nb\u00a0sp\u3000ideo\u200bzw e\u0301\n",
		"bad":   "a\xffb \xe2\x82 c\xe2\n\x01\x02 \x7f\r\fpage\vvt\n",
		"plain": strings.Repeat("the quick brown fox\n", 1000),
		"nonl":  "no newline here",
		"empty": "",
		"tabs":  "a\tb\tc\n\t\tx\n1234567\t8\n",
		"list":  "u\x00plain\x00nosuch\x00\x00nonl\x00",
		"list1": "u",
		"dir/":  "",
	}
	var cases []cmdtest.GNUCase
	for _, f := range [][]string{{}, {"-l"}, {"-w"}, {"-c"}, {"-m"}, {"-L"}, {"-lw"}, {"-lwmcL"}, {"-cm"}, {"--lines", "--bytes"}} {
		for _, in := range [][]string{{"u"}, {"bad"}, {"plain"}, {"nonl"}, {"empty"}, {"tabs"}, {"u", "bad", "plain"}, {}, {"-"}, {"-", "tabs"}} {
			args := append(append([]string{"wc"}, f...), in...)
			cases = append(cases, cmdtest.GNUCase{Files: files, Args: args, Stdin: "from stdin\n\xce\xbb x\n"})
			cases = append(cases, cmdtest.GNUCase{Files: files, Args: args, Stdin: "from stdin\n\xce\xbb x\n", Env: []string{"LC_ALL=C"}})
		}
	}
	for _, a := range [][]string{
		{"nosuch"}, {"dir"}, {"u", "nosuch", "dir"}, {"-c", "u", "dir"},
		{"--files0-from=list"}, {"--files0-from=list1"}, {"--files0-from=list", "-l"}, {"--files0-from=nosuch"}, {"--files0-from=list", "u"},
		{"--files0-from=-"}, {"--frob"}, {"-x"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: files, Args: append([]string{"wc"}, a...), Stdin: "u\x00-\x00plain"})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
