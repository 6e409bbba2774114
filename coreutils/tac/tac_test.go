package tac

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestTacAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "lines", Args: []string{}, Stdin: "a\nb\nc\n", Want: "c\nb\na\n"},
		{Name: "no newline", Args: []string{}, Stdin: "a\nb\nc", Want: "cb\na\n"},
		{Name: "before", Args: []string{"-b"}, Stdin: "a\nb\nc\n", Want: "\n\nc\nba"},
		{Name: "separator", Args: []string{"-s", ","}, Stdin: "a,b,c,", Want: "c,b,a,"},
		{Name: "multichar", Args: []string{"-s", "::"}, Stdin: "one::two::three", Want: "threetwo::one::"},
		{Name: "regex", Args: []string{"-r", "-s", "[0-9]+"}, Stdin: "a12b345c", Want: "c54b32a1"},
		{Name: "regex caret", Args: []string{"-r", "-s", "^a"}, Stdin: "xa\nb\nab", Want: "bxa\nb\na"},
		{Name: "regex alternation", Args: []string{"-r", "-s", "1\\|2"}, Stdin: "a1b2c", Want: "cb2a1"},
		{Name: "files", Args: []string{"a", "-", "b"}, Files: map[string]string{"a": "1\n2\n", "b": "3\n4\n"}, Stdin: "x\ny\n", Want: "2\n1\ny\nx\n4\n3\n"},
		{Name: "missing", Args: []string{"a", "nope"}, Files: map[string]string{"a": "1\n"}, Want: "1\n"},
		{Name: "bad regex", Args: []string{"-r", "-s", "\\("}},
	}
	gnutest.CheckCases(t, "tac", Run, cases)
}
