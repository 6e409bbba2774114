package hexdump

import (
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestHexdumpAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "canonical", Args: []string{"-C"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 0a 00 01  |Hello, world!...|\n00000010  7f 20 74 61 62 09 68 65  72 65                    |. tab.here|\n0000001a\n"},
		{Name: "default", Args: []string{}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "0000000 6548 6c6c 2c6f 7720 726f 646c 0a21 0100\n0000010 207f 6174 0962 6568 6572               \n000001a\n"},
		{Name: "partial", Args: []string{}, Stdin: "abc", Want: "0000000 6261 0063                              \n0000003\n"},
		{Name: "hex", Args: []string{"-x"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "0000000    6548    6c6c    2c6f    7720    726f    646c    0a21    0100\n0000010    207f    6174    0962    6568    6572                        \n000001a\n"},
		{Name: "decimal", Args: []string{"-d"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "0000000   25928   27756   11375   30496   29295   25708   02593   00256\n0000010   08319   24948   02402   25960   25970                        \n000001a\n"},
		{Name: "octal", Args: []string{"-o"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "0000000  062510  066154  026157  073440  071157  062154  005041  000400\n0000010  020177  060564  004542  062550  062562                        \n000001a\n"},
		{Name: "chars", Args: []string{"-c"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there\u00ff", Want: "0000000   H   e   l   l   o   ,       w   o   r   l   d   !  \\n  \\0 001\n0000010 177       t   a   b  \\t   h   e   r   e 303 277                \n000001c\n"},
		{Name: "bytes", Args: []string{"-b"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "0000000 110 145 154 154 157 054 040 167 157 162 154 144 041 012 000 001\n0000010 177 040 164 141 142 011 150 145 162 145                        \n000001a\n"},
		{Name: "length skip", Args: []string{"-C", "-n", "5", "-s", "3", "in"}, Files: map[string]string{"in": "abcdefghijklmnopqrstuvwxyz"}, Want: "00000003  64 65 66 67 68                                    |defgh|\n00000008\n"},
		{Name: "skip past end", Args: []string{"-C", "-s", "100", "in"}, Files: map[string]string{"in": "abc"}, Want: "00000003\n"},
		{Name: "squeeze", Args: []string{"-C"}, Stdin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAxyz", Want: "00000000  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|\n*\n00000040  78 79 7a                                          |xyz|\n00000043\n"},
		{Name: "no squeeze", Args: []string{"-v", "-C"}, Stdin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", Want: "00000000  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|\n00000010  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|\n00000020  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|\n00000030\n"},
		{Name: "two formats", Args: []string{"-x", "-C"}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "0000000    6548    6c6c    2c6f    7720    726f    646c    0a21    0100\n00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 0a 00 01  |Hello, world!...|\n0000010    207f    6174    0962    6568    6572                        \n00000010  7f 20 74 61 62 09 68 65  72 65                    |. tab.here|\n0000001a\n"},
		{Name: "custom", Args: []string{"-e", "4/1 \"%02x \" \"\\n\""}, Stdin: "abcdefgh", Want: "61 62 63 64\n65 66 67 68\n"},
		{Name: "custom address", Args: []string{"-e", "\"%08.8_ax: \" 8/1 \"%_p\" \"\\n\""}, Stdin: "abcdefgh\u0001\u0002", Want: "00000000: abcdefgh\n00000008: ..\n"},
		{Name: "files", Args: []string{"-C", "a", "b"}, Files: map[string]string{"a": "ab", "b": "cd"}, Want: "00000000  61 62 63 64                                       |abcd|\n00000004\n"},
		{Name: "missing", Args: []string{"a", "nope"}, Files: map[string]string{"a": "ab"}, Want: "0000000 6261                                   \n0000002\n"},
		{Name: "all missing", Args: []string{"nope"}},
		{Name: "empty", Args: []string{"-C"}},
		{Name: "bad length", Args: []string{"-n", "x"}},
	}
	gnutest.CheckCases(t, "hexdump", Run, cases)
}
