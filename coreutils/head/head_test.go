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
	tests := []cmdtest.Expectation{
		{Args: []string{"head", "-n", "2", "f"}, Stdout: "1\n2\n", Code: 0},
		{Args: []string{"head", "-3", "f"}, Stdout: "1\n2\n3\n", Code: 0},
		{Args: []string{"head", "-n", "-10", "f"}, Stdout: "1\n2\n", Code: 0},
		{Args: []string{"head", "-c", "3", "g"}, Stdout: "a\nb", Code: 0},
		{Args: []string{"head", "-c", "-2", "g"}, Stdout: "a", Code: 0},
		{Args: []string{"head", "-n1", "f", "g"}, Stdout: "==> f <==\n1\n\n==> g <==\na\n", Code: 0},
		{Args: []string{"head", "-qn1", "f", "g"}, Stdout: "1\na\n", Code: 0},
		{Args: []string{"head", "-n", "x", "f"}, Stdout: "", Code: 1},
	}
	cmdtest.Expect(t, Run, files, tests)
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
