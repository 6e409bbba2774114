package hexdump

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestHexdumpAgainstReal(t *testing.T) {
	cases := []tcase{
		{name: "canonical", args: []string{"-C"}, files: nil, stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", want: "00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 0a 00 01  |Hello, world!...|\n00000010  7f 20 74 61 62 09 68 65  72 65                    |. tab.here|\n0000001a\n"},
		{name: "default", args: []string{}, files: nil, stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", want: "0000000 6548 6c6c 2c6f 7720 726f 646c 0a21 0100\n0000010 207f 6174 0962 6568 6572               \n000001a\n"},
		{name: "partial", args: []string{}, files: nil, stdin: "abc", want: "0000000 6261 0063                              \n0000003\n"},
		{name: "hex", args: []string{"-x"}, files: nil, stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", want: "0000000    6548    6c6c    2c6f    7720    726f    646c    0a21    0100\n0000010    207f    6174    0962    6568    6572                        \n000001a\n"},
		{name: "decimal", args: []string{"-d"}, files: nil, stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", want: "0000000   25928   27756   11375   30496   29295   25708   02593   00256\n0000010   08319   24948   02402   25960   25970                        \n000001a\n"},
		{name: "octal", args: []string{"-o"}, files: nil, stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", want: "0000000  062510  066154  026157  073440  071157  062154  005041  000400\n0000010  020177  060564  004542  062550  062562                        \n000001a\n"},
		{name: "chars", args: []string{"-c"}, files: nil, stdin: "Hello, world!\n\u0000\u0001\u007f tab\there\u00ff", want: "0000000   H   e   l   l   o   ,       w   o   r   l   d   !  \\n  \\0 001\n0000010 177       t   a   b  \\t   h   e   r   e 303 277                \n000001c\n"},
		{name: "bytes", args: []string{"-b"}, files: nil, stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", want: "0000000 110 145 154 154 157 054 040 167 157 162 154 144 041 012 000 001\n0000010 177 040 164 141 142 011 150 145 162 145                        \n000001a\n"},
		{name: "length skip", args: []string{"-C", "-n", "5", "-s", "3", "in"}, files: map[string]string{"in": "abcdefghijklmnopqrstuvwxyz"}, stdin: "", want: "00000003  64 65 66 67 68                                    |defgh|\n00000008\n"},
		{name: "skip past end", args: []string{"-C", "-s", "100", "in"}, files: map[string]string{"in": "abc"}, stdin: "", want: "00000003\n"},
		{name: "squeeze", args: []string{"-C"}, files: nil, stdin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAxyz", want: "00000000  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|\n*\n00000040  78 79 7a                                          |xyz|\n00000043\n"},
		{name: "no squeeze", args: []string{"-v", "-C"}, files: nil, stdin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", want: "00000000  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|\n00000010  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|\n00000020  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|\n00000030\n"},
		{name: "two formats", args: []string{"-x", "-C"}, files: nil, stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", want: "0000000    6548    6c6c    2c6f    7720    726f    646c    0a21    0100\n00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 0a 00 01  |Hello, world!...|\n0000010    207f    6174    0962    6568    6572                        \n00000010  7f 20 74 61 62 09 68 65  72 65                    |. tab.here|\n0000001a\n"},
		{name: "custom", args: []string{"-e", "4/1 \"%02x \" \"\\n\""}, files: nil, stdin: "abcdefgh", want: "61 62 63 64\n65 66 67 68\n"},
		{name: "custom address", args: []string{"-e", "\"%08.8_ax: \" 8/1 \"%_p\" \"\\n\""}, files: nil, stdin: "abcdefgh\u0001\u0002", want: "00000000: abcdefgh\n00000008: ..\n"},
		{name: "files", args: []string{"-C", "a", "b"}, files: map[string]string{"a": "ab", "b": "cd"}, stdin: "", want: "00000000  61 62 63 64                                       |abcd|\n00000004\n"},
		{name: "missing", args: []string{"a", "nope"}, files: map[string]string{"a": "ab"}, stdin: "", want: "0000000 6261                                   \n0000002\n"},
		{name: "all missing", args: []string{"nope"}, files: nil, stdin: "", want: ""},
		{name: "empty", args: []string{"-C"}, files: nil, stdin: "", want: ""},
		{name: "bad length", args: []string{"-n", "x"}, files: nil, stdin: "", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"hexdump"}, tc.args...)...)
			if tc.want != "" && got.Stdout != tc.want {
				t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
			}
			out, errs, code, ok := runReal(t, "hexdump", tc)
			if !ok {
				return
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), real tool (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}
