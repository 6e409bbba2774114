package comm

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestComm(t *testing.T) {
	files := map[string]string{"a": "a\nc\nd\n", "b": "b\nc\ne\n"}
	tests := []cmdtest.Expectation{
		{Args: []string{"comm", "a", "b"}, Stdout: "a\n\tb\n\t\tc\nd\n\te\n", Code: 0},
		{Args: []string{"comm", "-12", "a", "b"}, Stdout: "c\n", Code: 0},
		{Args: []string{"comm", "-3", "a", "b"}, Stdout: "a\n\tb\nd\n\te\n", Code: 0},
		{Args: []string{"comm", "--output-delimiter=|", "a", "b"}, Stdout: "a\n|b\n||c\nd\n|e\n", Code: 0},
		{Args: []string{"comm", "a"}, Stdout: "", Code: 1},
	}
	cmdtest.Expect(t, Run, files, tests)
}

func TestCommGNU(t *testing.T) {
	files := map[string]string{
		"c1":   "a\nc\nd\n",
		"c2":   "b\nc\ne\n",
		"u1":   "b\na\nc\n",
		"u2":   "z\ny\nx\nw\n",
		"nonl": "a\nc",
		"e":    "",
		"dup":  "a\na\nb\nb\nb\n",
		"z1":   "a\x00b\x00",
		"z2":   "b\x00c\x00",
		"dir/": "",
	}
	var cases []cmdtest.GNUCase
	pairs := [][2]string{{"c1", "c2"}, {"c2", "c1"}, {"u1", "c2"}, {"c1", "u1"}, {"u1", "u2"}, {"u2", "c1"}, {"nonl", "c1"}, {"e", "c1"}, {"c1", "e"}, {"dup", "c1"}, {"c1", "dup"}, {"c1", "-"}, {"-", "c2"}}
	for _, f := range [][]string{{}, {"-1"}, {"-2"}, {"-3"}, {"-12"}, {"-13"}, {"-23"}, {"-123"}, {"--check-order"}, {"--nocheck-order"}, {"--total"}, {"-3", "--total"}, {"--output-delimiter=::"}, {"--output-delimiter="}, {"--output-delimiter=:", "--output-delimiter=:"}} {
		for _, p := range pairs {
			cases = append(cases, cmdtest.GNUCase{Files: files, Args: append(append([]string{"comm"}, f...), p[0], p[1]), Stdin: "b\nbb\nc\n"})
		}
	}
	for _, a := range [][]string{
		{}, {"a"}, {"a", "b", "c"}, {"nosuch", "c1"}, {"c1", "nosuch"}, {"c1", "dir"}, {"-z", "z1", "z2"}, {"--output-delimiter=:", "--output-delimiter=x", "c1", "c2"},
		{"--frob"}, {"-4"}, {"--check"}, {"--check-order", "u2", "c1"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: files, Args: append([]string{"comm"}, a...)})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
