package strings

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestStringsAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "default", Args: []string{}, Stdin: "ab\u0000abcd\tef\u0001hello world\nxyz1234\u0080\u00e9longer text\u0000tail", Want: "abcd\tef\nhello world\nxyz1234\nlonger text\ntail\n"},
		{Name: "min", Args: []string{"-n", "3"}, Stdin: "ab\u0000abc\u0000abcdef\u0000", Want: "abc\nabcdef\n"},
		{Name: "obsolete min", Args: []string{"-6"}, Stdin: "ab\u0000abc\u0000abcdef\u0000", Want: "abcdef\n"},
		{Name: "radix d", Args: []string{"-t", "d"}, Stdin: "xx\u0001hello\u0002world!!\u0003", Want: "      3 hello\n      9 world!!\n"},
		{Name: "radix x", Args: []string{"-t", "x"}, Stdin: "xx\u0001hello\u0002world!!\u0003", Want: "      3 hello\n      9 world!!\n"},
		{Name: "radix o", Args: []string{"-o"}, Stdin: "xx\u0001hello\u0002world!!\u0003", Want: "      3 hello\n     11 world!!\n"},
		{Name: "file names", Args: []string{"-f", "a", "b"}, Files: map[string]string{"a": "first\u0000second", "b": "third"}, Want: "a: first\na: second\nb: third\n"},
		{Name: "stdin name", Args: []string{"-f"}, Stdin: "piped", Want: "{standard input}: piped\n"},
		{Name: "separator", Args: []string{"-s", "|"}, Stdin: "first\u0000second", Want: "first|second|"},
		{Name: "whitespace", Args: []string{"-w"}, Stdin: "one\ntwo\n\u00e9abcd\u0001", Want: "one\ntwo\n\nabcd\n"},
		{Name: "8-bit", Args: []string{"-e", "S"}, Stdin: "one\ntwo\n\u00e9\u00eaabcd\u0001", Want: "\u00e9\u00eaabcd\n"},
		{Name: "utf16le", Args: []string{"-e", "l"}, Stdin: "a\u0000b\u0000c\u0000d\u0000e\u0000\u0000\u0000x\u0000y\u0000z\u0000w\u0000", Want: "abcde\nxyzw\n"},
		{Name: "utf16be", Args: []string{"-e", "b"}, Stdin: "\u0000a\u0000b\u0000c\u0000d", Want: "abcd\n"},
		{Name: "missing dir", Args: []string{"a", "nope", "d"}, Files: map[string]string{"a": "abcd", "d/": ""}, Want: "abcd\n"},
		{Name: "bad min", Args: []string{"-n", "0"}},
		{Name: "bad int", Args: []string{"-n", "x"}},
	}
	gnutest.CheckCases(t, "strings", Run, cases)
}
