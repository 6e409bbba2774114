package tr

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestTr(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		out   string
		code  int
	}{
		{[]string{"tr", "a-z", "A-Z"}, "hello\n", "HELLO\n", 0},
		{[]string{"tr", "-d", "l"}, "hello\n", "heo\n", 0},
		{[]string{"tr", "-s", "l"}, "hello\n", "helo\n", 0},
		{[]string{"tr", "-cd", "[:digit:]"}, "a1b2\n", "12", 0},
		{[]string{"tr", "[:lower:]", "[:upper:]"}, "abc\n", "ABC\n", 0},
		{[]string{"tr", "abc", "x"}, "aabbcc", "xxxxxx", 0},
		{[]string{"tr", "-t", "abc", "x"}, "aabbcc", "xxbbcc", 0},
		{[]string{"tr", `\n`, " "}, "a\nb\n", "a b ", 0},
		{[]string{"tr", "a", "[x*3]"}, "a", "x", 0},
		{[]string{"tr"}, "", "", 1},
	}
	for _, tt := range tests {
		env := cmdtest.Env{Stdin: tt.stdin}
		r := env.Run(Run, tt.args...)
		if r.Stdout != tt.out || r.Code != tt.code {
			t.Errorf("%q: got %q %d (%q), want %q %d", tt.args, r.Stdout, r.Code, r.Stderr, tt.out, tt.code)
		}
	}
}

func TestTrGNU(t *testing.T) {
	input := "Hello, World! 123 abc ABC\taaa   bbb\n\x00\x01\x7f\xc3\xa9\xff zz..--\\\\ []:*=\n"
	var all []byte
	for i := 0; i < 256; i++ {
		all = append(all, byte(i))
	}
	argsets := [][]string{
		{"a-z", "A-Z"}, {"A-Z", "a-z"}, {"[:lower:]", "[:upper:]"}, {"[:upper:]", "[:lower:]"}, {"[:upper:][:lower:]", "[:lower:][:upper:]"},
		{"a-z", "x"}, {"-t", "a-z", "xy"}, {"abc", "[x*]"}, {"abc", "[x*2]y"}, {"a-f", "[x*010]"}, {"a-z", "A[-*]Z"},
		{"-d", "a-z"}, {"-d", "[:digit:][:space:]"}, {"-cd", "[:alnum:]"}, {"-Cd", "a-z\\n"}, {"-s", " "}, {"-s", "a-z"}, {"-cs", "a-z"},
		{"-ds", "a-z", " "}, {"-cds", "a-z", "-"}, {"-s", "a-z", "A-Z"}, {"-cs", "[:alpha:]", "\\n"}, {"-c", "[:alpha:]", "[.*]"},
		{"-c", "a-z", "_"}, {"-ct", "a-z", "_x"}, {"[:punct:]", "_"}, {"[:space:]", "."}, {"[:blank:]", "_"}, {"[:cntrl:]", "?"},
		{"[:xdigit:]", "X"}, {"[:graph:]", "g"}, {"[:print:]", "p"}, {"[:alnum:]", "n"}, {"[=a=]", "b"}, {"-d", "[=a=][=b=]"},
		{"\\101-\\132", "\\141-\\172"}, {"\\0", "x"}, {"-d", "\\000\\001\\177"}, {"\\\\", "/"}, {"\\t", "T"}, {"\\a\\b\\f\\v\\r", "abfvr"},
		{"\\q", "Q"}, {"a\\", "xy"}, {"\\400", "xy"}, {"\\777", "ab"}, {"[", "x"}, {"[a", "xy"}, {"[:", "xy"}, {"[:a", "xyz"}, {"a-", "xy"}, {"-a", "x"},
		{"--", "-a", "x"}, {"a", "-d"}, {"a-a", "b"}, {"z-a", "x"}, {"[:foo:]", "x"}, {"[=ab=]", "x"}, {"[::]", "x"}, {"[==]", "x"},
		{"a", "[b*x]"}, {"[a*]", "x"}, {"a", "[b*][c*]"}, {"a", "[:digit:]"}, {"a-z", "[:upper:]"}, {"-d", "a", "b"}, {"-s"}, {"-ds", "a"},
		{"-d"}, {"-c", "a"}, {"abc", ""}, {"-t", "abc", ""}, {"[:lower:]", "[:upper:][:digit:]"}, {"[:upper:]", "a[:lower:]"},
		{"-c", "[:alpha:]", "xy"}, {"a[=b=]", "[=c=]"}, {"-d", "[a*]"}, {"-d", "a", "[b*]"}, {"a", "[:alpha:]"}, {"[:alpha:]", "[:lower:]"},
		{"-C", "a"}, {"--frob"}, {"-e"}, {"[a*5]", "x"}, {"a", "[b*5]"}, {"abcdefgh", "[x*2][y*]z"}, {"a-c", "[:upper:]"}, {"a-z", "[:lower:]"},
		{"[:lower:]", "[:lower:]"}, {"[:upper:]a", "[:lower:]b"}, {"ab[:upper:]", "xy[:lower:]"}, {"[:digit:]", "[x*]"}, {"[:digit:]abc", "0-9[x*]"},
		{"-s", "[:upper:]", "[:lower:]"}, {"[a-c]", "[x-z]"}, {"[*", "x"}, {"[a*b]", "x"}, {"a", "[b*09]"}, {"a", "[b*1a]"},
		{"-c", "\\000-\\377", "x"}, {"-dc", "\\000-\\377"}, {"-t", "[:lower:]", "[:upper:]"}, {"\\n\\n", "ab"}, {"a-c-e", "123"},
		{"-ds", "", "a"}, {"", "x"}, {"-d", ""}, {"[:upper:]", "[:upper:]"}, {"-c", "[:upper:]", "[:lower:]"},
	}
	var cases []cmdtest.GNUCase
	for _, a := range argsets {
		cases = append(cases, cmdtest.GNUCase{Args: append([]string{"tr"}, a...), Stdin: input})
		cases = append(cases, cmdtest.GNUCase{Args: append([]string{"tr"}, a...), Stdin: string(all)})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
