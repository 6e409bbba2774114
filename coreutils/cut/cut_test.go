package cut

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestCut(t *testing.T) {
	files := map[string]string{"f": "a:b:c\nno delim\n1:2\n"}
	tests := []cmdtest.Expectation{
		{Args: []string{"cut", "-d:", "-f2", "f"}, Stdout: "b\nno delim\n2\n", Code: 0},
		{Args: []string{"cut", "-d:", "-sf1,3", "f"}, Stdout: "a:c\n1\n", Code: 0},
		{Args: []string{"cut", "-c2-3", "f"}, Stdout: ":b\no \n:2\n", Code: 0},
		{Args: []string{"cut", "-d:", "-f1", "--complement", "f"}, Stdout: "b:c\nno delim\n2\n", Code: 0},
		{Args: []string{"cut", "-d:", "-f1-", "--output-delimiter=|", "f"}, Stdout: "a|b|c\nno delim\n1|2\n", Code: 0},
		{Args: []string{"cut", "-f0", "f"}, Stdout: "", Code: 1},
	}
	cmdtest.Expect(t, Run, files, tests)
}

func TestCutGNU(t *testing.T) {
	files := map[string]string{
		"t":     "a\tb\tc\td\n\tlead\ntrail\t\nnone\n\n1\t2\t3\t4\t5\t6\t7\n",
		"colon": "root:x:0:0:root:/root:/bin/bash\nbin::1\n:::\nplain\nlast:line",
		"nl":    "a\nb\nc\n",
		"nl2":   "a\nb\nc",
		"one":   "a\n",
		"z":     "a:b\x00c:d\x00e",
		"long":  strings.Repeat("x:", 100000) + "\n",
		"dir/":  "",
	}
	var cases []cmdtest.GNUCase
	lists := []string{"1", "2", "1,3", "2-", "-2", "1-2,4", "3-3", "2,1", "1-3,2-5", "5-", "1,2,3,4,5,6,7,8", "1 3", "7", "1-2,3-4"}
	for _, l := range lists {
		cases = append(cases,
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-f", l, "t"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-s", "-f", l, "t"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "--complement", "-f", l, "t"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-d:", "-f", l, "colon"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-d:", "-s", "--output-delimiter=->", "-f", l, "colon"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-b", l, "colon"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-c", l, "--output-delimiter=|", "colon"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "--complement", "-b", l, "--output-delimiter=|", "colon"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-d", "\n", "-f", l, "nl"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-d", "\n", "-f", l, "nl2"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-d", "\n", "-s", "-f", l, "one"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-d", "\n", "-f", l, "one"}},
			cmdtest.GNUCase{Files: files, Args: []string{"cut", "-z", "-d:", "-f", l, "z"}},
		)
	}
	for _, a := range [][]string{
		{}, {"-b"}, {"-b", "1", "-c", "2"}, {"-b", "1", "-d", ":"}, {"-b", "1", "-s"}, {"-f", "1", "-d", "ab"}, {"-f", "0"},
		{"-f", "3-1"}, {"-f", "-"}, {"-f", "1-2-3"}, {"-b", "1-2-3"}, {"-f", "x"}, {"-f", "1x2"}, {"-b", "1,,2"}, {"-f", ",1"}, {"-f", "1,"},
		{"-b", "99999999999999999999"}, {"-f", "18446744073709551616"}, {"-f", "1", "-d", ""}, {"-f", "2", "--output-delimiter=", "colon"},
		{"-b", "0-2"}, {"-f", "1", "--frob"}, {"-f", "0-2"}, {"-f", "1-0"}, {"-f", ""}, {"-b", " "}, {"-n", "-b", "2", "colon"},
		{"-f1", "nosuch", "t"}, {"-f1", "dir"}, {"-f1", "-", "t"}, {"-d:", "-f", "2-", "long"}, {"-c", "1-3", "long"},
		{"-s", "-d:", "-f", "1", "--complement", "colon"}, {"-f", "1-", "-d", ":", "colon"}, {"--fields=2", "--delimiter=:", "colon"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: files, Args: append([]string{"cut"}, a...), Stdin: "s1\ts2\ns3\n"})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
