package fold

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestFoldAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "default", Args: []string{}, Stdin: "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\nshort\n", Want: "00000000000000000000000000000000000000000000000000000000000000000000000000000000\n00000000000000000000\nshort\n"},
		{Name: "width", Args: []string{"-w", "10"}, Stdin: "the quick brown fox jumps over the lazy dog\n", Want: "the quick \nbrown fox \njumps over\n the lazy \ndog\n"},
		{Name: "spaces", Args: []string{"-s", "-w", "10"}, Stdin: "the quick brown fox jumps over the lazy dog\n", Want: "the quick \nbrown fox \njumps \nover the \nlazy dog\n"},
		{Name: "tabs", Args: []string{"-w", "6"}, Stdin: "a\tb\tc\td\te\n", Want: "a\n\t\nb\n\t\nc\n\t\nd\n\t\ne\n"},
		{Name: "bytes", Args: []string{"-b", "-w", "6"}, Stdin: "a\tb\tc\td\te\n", Want: "a\tb\tc\t\nd\te\n"},
		{Name: "backspace cr", Args: []string{"-w", "5"}, Stdin: "abcdef\bgh\rijklmnop\n", Want: "abcde\nf\bgh\rijklm\nnop\n"},
		{Name: "obsolete", Args: []string{"-3"}, Stdin: "abcdefghij\n", Want: "abc\ndef\nghi\nj\n"},
		{Name: "grouped", Args: []string{"-s4"}, Stdin: "ab cdefghij\n", Want: "ab \ncdef\nghij\n"},
		{Name: "no newline", Args: []string{"-w", "3"}, Stdin: "abcdefg", Want: "abc\ndef\ng"},
		{Name: "bad width", Args: []string{"-w", "0"}},
		{Name: "bad width text", Args: []string{"-w", "x"}},
		{Name: "missing", Args: []string{"-w", "2", "in", "nope"}, Files: map[string]string{"in": "abc\n"}, Want: "ab\nc\n"},
	}
	gnutest.CheckCases(t, "fold", Run, cases)
}
