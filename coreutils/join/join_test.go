package join

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestJoin(t *testing.T) {
	files := map[string]string{"a": "a 1\nb 2\nc 3\n", "b": "a x\nc y\nd z\n"}
	tests := []cmdtest.Expectation{
		{Args: []string{"join", "a", "b"}, Stdout: "a 1 x\nc 3 y\n", Code: 0},
		{Args: []string{"join", "-a1", "a", "b"}, Stdout: "a 1 x\nb 2\nc 3 y\n", Code: 0},
		{Args: []string{"join", "-v2", "a", "b"}, Stdout: "d z\n", Code: 0},
		{Args: []string{"join", "-o", "2.2,1.2", "a", "b"}, Stdout: "x 1\ny 3\n", Code: 0},
		{Args: []string{"join", "-t", ",", "a", "b"}, Stdout: "", Code: 0},
		{Args: []string{"join", "a"}, Stdout: "", Code: 1},
	}
	cmdtest.Expect(t, Run, files, tests)
}

func TestJoinGNU(t *testing.T) {
	files := map[string]string{
		"j1":   "a 1\nb 2\nc 3\n",
		"j2":   "a x\nc y\nd z\n",
		"ju":   "b 1\na 2\nc 3\n",
		"dup1": "k 1\nk 2\nm 3\n",
		"dup2": "k x\nk y\nl z\nm w\n",
		"csv1": "id,name\n1,ann\n2,bob\n3,\n",
		"csv2": "id,age\n1,30\n3,40\n4,50\n",
		"sp":   "  a   1  \n b\t2\n\n",
		"caps": "A 1\nb 2\nC 3\n",
		"h1":   "x\n",
		"e":    "",
		"z1":   "a 1\x00b 2\x00",
		"z2":   "a x\x00b y\x00",
		"f2":   "1 a\n2 c\n3 b\n",
		"dir/": "",
	}
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"j1", "j2"}, {"-a1", "j1", "j2"}, {"-a2", "j1", "j2"}, {"-a1", "-a2", "j1", "j2"}, {"-v1", "j1", "j2"}, {"-v2", "j1", "j2"}, {"-v1", "-v2", "j1", "j2"},
		{"-o", "1.2,2.2,0", "j1", "j2"}, {"-e", "E", "-o", "1.2,2.3", "-a1", "j1", "j2"}, {"-e", "E", "-a1", "-a2", "-o", "0,1.2,2.2", "j1", "j2"},
		{"ju", "j2"}, {"--check-order", "ju", "j2"}, {"--nocheck-order", "ju", "j2"}, {"-a1", "ju", "j2"}, {"j2", "ju"},
		{"-j1", "j1", "j2"}, {"-j", "2", "j1", "j2"}, {"-1", "3", "j1", "j2"}, {"-o", "auto", "-a1", "j1", "j2"}, {"-o", "auto", "-e", "-", "-a1", "-a2", "j1", "j2"},
		{"-t", "", "j1", "j1"}, {"-t", "ab", "j1", "j2"}, {"-1", "0", "j1", "j2"}, {"-a", "3", "j1", "j2"}, {"-o", "3.1", "j1", "j2"},
		{"-o", "1.x", "j1", "j2"}, {"-o", "1", "j1", "j2"}, {"-o", "0.1", "j1", "j2"}, {"-o", "", "j1", "j2"}, {"-o", "1.1,,2.1", "j1", "j2"},
		{"-e", "a", "-e", "b", "j1", "j2"}, {"-t:", "-t,", "j1", "j2"}, {"-", "-"}, {"j1"}, {}, {"j1", "j2", "j3"}, {"nosuch", "j2"}, {"j1", "dir"},
		{"--header", "j1", "j2"}, {"--header", "h1", "j2"}, {"--header", "-o", "auto", "j1", "j2"}, {"--header", "e", "j2"}, {"--header", "-t,", "csv1", "csv2"},
		{"-i", "caps", "j1"}, {"caps", "j1"}, {"-o", "0,1.2", "-o", "2.2", "j1", "j2"}, {"-o", "1.1", "2.2", "j1", "j2"}, {"-1", "1", "-1", "2", "j1", "j2"},
		{"dup1", "dup2"}, {"-a1", "-a2", "dup1", "dup2"}, {"-v1", "dup2", "dup1"}, {"-t,", "csv1", "csv2"}, {"-t,", "-a1", "-e", "NULL", "-o", "auto", "csv1", "csv2"},
		{"sp", "j2"}, {"-t", " ", "sp", "j2"}, {"-e", "X", "sp", "j2"}, {"-1", "2", "-2", "1", "f2", "j1"}, {"-2", "2", "j1", "f2"},
		{"-z", "z1", "z2"}, {"-", "j2"}, {"j1", "-"}, {"e", "j1"}, {"-a1", "j1", "e"}, {"--frob"}, {"-x"}, {"-t", `\0`, "j1", "j2"},
		{"-j", "1", "-1", "2", "j1", "j2"}, {"-j1", "2", "j1", "j2"}, {"-v", "x", "j1", "j2"}, {"-j", "0", "j1", "j2"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: files, Args: append([]string{"join"}, a...), Stdin: "b 1\nc 2\n"})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
