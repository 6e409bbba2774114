package nl

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestNlAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "default", Args: []string{}, Stdin: "one\ntwo\n\nthree\n", Want: "     1\tone\n     2\ttwo\n       \n     3\tthree\n"},
		{Name: "all ln", Args: []string{"-ba", "-nln"}, Stdin: "a\n\nb\n", Want: "1     \ta\n2     \t\n3     \tb\n"},
		{Name: "rz width sep", Args: []string{"-ba", "-nrz", "-w3", "-s", ": "}, Stdin: "a\n\nb\n", Want: "001: a\n002: \n003: b\n"},
		{Name: "regex", Args: []string{"-bpan\\|ch"}, Stdin: "apple\nbanana\ncherry\n", Want: "       apple\n     1\tbanana\n     2\tcherry\n"},
		{Name: "start incr", Args: []string{"-v", "10", "-i", "5"}, Stdin: "x\ny\nz\n", Want: "    10\tx\n    15\ty\n    20\tz\n"},
		{Name: "join blank", Args: []string{"-ba", "-l2"}, Stdin: "a\n\n\n\nb\n\n\n", Want: "     1\ta\n       \n     2\t\n       \n     3\tb\n       \n     4\t\n"},
		{Name: "sections", Args: []string{"-ha", "-fa"}, Stdin: "\\:\\:\\:\nhead\n\\:\\:\nbody\n\\:\nfoot\n", Want: "\n     1\thead\n\n     1\tbody\n\n     1\tfoot\n"},
		{Name: "no renumber", Args: []string{"-p"}, Stdin: "a\n\\:\\:\nb\n", Want: "     1\ta\n\n     2\tb\n"},
		{Name: "delimiter", Args: []string{"-d", "@@", "-ha"}, Stdin: "a\n@@\nb\n@@@@@@\nc\n", Want: "     1\ta\n\n       b\n\n     1\tc\n"},
		{Name: "no newline", Args: []string{}, Stdin: "a\nb", Want: "     1\ta\n     2\tb\n"},
		{Name: "bad style", Args: []string{"-b", "x"}},
		{Name: "bad format", Args: []string{"-n", "xx"}},
		{Name: "bad width", Args: []string{"-w", "0"}},
		{Name: "bad regex", Args: []string{"-bp\\("}},
		{Name: "missing", Args: []string{"in", "nope"}, Files: map[string]string{"in": "a\n"}, Want: "     1\ta\n"},
	}
	gnutest.CheckCases(t, "nl", Run, cases)
}
