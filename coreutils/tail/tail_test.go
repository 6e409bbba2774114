package tail

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat("y", i%11))
		b.WriteString("\n")
	}
	return b.String()
}

func TestTail(t *testing.T) {
	files := map[string]string{"f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "g": "a\nb"}
	tests := []cmdtest.Expectation{
		{Args: []string{"tail", "-n", "2", "f"}, Stdout: "11\n12\n", Code: 0},
		{Args: []string{"tail", "-3", "f"}, Stdout: "10\n11\n12\n", Code: 0},
		{Args: []string{"tail", "+11", "f"}, Stdout: "11\n12\n", Code: 0},
		{Args: []string{"tail", "-n", "+12", "f"}, Stdout: "12\n", Code: 0},
		{Args: []string{"tail", "-c", "3", "g"}, Stdout: "a\nb", Code: 0},
		{Args: []string{"tail", "-n1", "f", "g"}, Stdout: "==> f <==\n12\n\n==> g <==\nb", Code: 0},
		{Args: []string{"tail", "-f", "-n1", "g"}, Stdout: "b", Code: 0},
		{Args: []string{"tail", "-n", "x", "f"}, Stdout: "", Code: 1},
	}
	cmdtest.Expect(t, Run, files, tests)
}

func TestTailGNU(t *testing.T) {
	files := map[string]string{
		"f":     numbered(30),
		"nonl":  "a\nb\nc",
		"z":     "a\x00b\x00c\x00d",
		"big":   numbered(100000),
		"bignl": numbered(50000) + "end",
		"empty": "",
		"dir/":  "",
	}
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"f"}, {"-n", "5", "f"}, {"-n", "+5", "f"}, {"-n", "-5", "f"}, {"-n", "0", "f"}, {"-n", "+0", "f"}, {"-n", "+1", "f"},
		{"-c", "7", "f"}, {"-c", "+7", "f"}, {"-c", "+0", "f"}, {"-c", "1000", "f"}, {"--bytes=1k", "big"},
		{"-n", "3", "nonl"}, {"-n", "1", "nonl"}, {"-n", "+2", "nonl"}, {"-c", "2", "nonl"},
		{"-z", "-n", "2", "z"}, {"-z", "-n", "+3", "z"},
		{"-n", "99990", "big"}, {"-n", "7", "big"}, {"-n", "3", "bignl"}, {"-n", "+99990", "big"}, {"-c", "300000", "big"}, {"-c", "5", "big"},
		{"-5", "f"}, {"+25", "f"}, {"-5c", "f"}, {"+5c", "f"}, {"-2b", "big"}, {"-l", "f"}, {"+", "f"}, {"+3", "f", "nonl"},
		{"f", "nonl", "empty"}, {"-v", "f"}, {"-q", "f", "nonl"}, {"--silent", "f", "nonl"},
		{"f", "nosuch", "nonl"}, {"nosuch"}, {"dir"}, {"f", "dir", "nonl"}, {"-n", "0", "dir"},
		{"-n", "x", "f"}, {"-c", "1y", "f"}, {"-n", "99999999999999999999999", "f"}, {"-c", "n"},
		{"--lines", "3", "f"}, {"--lines"}, {"--frob"},
		{"--follow=foo", "f"}, {"-f", "nosuch"},
		{"-s", "x", "f"}, {"--pid=x", "f"}, {"--max-unchanged-stats=x", "f"},
		{"-", "f"}, {"-n", "2"}, {"-c", "4", "-"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: files, Args: append([]string{"tail"}, a...), Stdin: "s1\ns2\ns3"})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
