package xxd

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestXxdAgainstReal(t *testing.T) {
	cases := []tcase{
		{name: "default", args: []string{"in"}, files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, stdin: "", want: "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 210a 0001  Hello, world!...\n00000010: 7f20 7461 6209 6865 7265                 . tab.here\n"},
		{name: "stdin", args: []string{}, files: nil, stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", want: "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 210a 0001  Hello, world!...\n00000010: 7f20 7461 6209 6865 7265                 . tab.here\n"},
		{name: "cols groups", args: []string{"-c", "8", "-g", "4", "in"}, files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, stdin: "", want: "00000000: 48656c6c 6f2c2077  Hello, w\n00000008: 6f726c64 210a0001  orld!...\n00000010: 7f207461 62096865  . tab.he\n00000018: 7265               re\n"},
		{name: "upper", args: []string{"-g", "1", "-u", "in"}, files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, stdin: "", want: "00000000: 48 65 6C 6C 6F 2C 20 77 6F 72 6C 64 21 0A 00 01  Hello, world!...\n00000010: 7F 20 74 61 62 09 68 65 72 65                    . tab.here\n"},
		{name: "odd groups", args: []string{"-c7", "-g3", "in"}, files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, stdin: "", want: "00000000: 48656c 6c6f2c 20  Hello, \n00000007: 776f72 6c6421 0a  world!.\n0000000e: 00017f 207461 62  ... tab\n00000015: 096865 7265       .here\n"},
		{name: "plain", args: []string{"-p", "in"}, files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\thereHello, world!\n\u0000\u0001\u007f tab\thereHello, world!\n\u0000\u0001\u007f tab\there"}, stdin: "", want: "48656c6c6f2c20776f726c64210a00017f20746162096865726548656c6c\n6f2c20776f726c64210a00017f20746162096865726548656c6c6f2c2077\n6f726c64210a00017f207461620968657265\n"},
		{name: "plain cols", args: []string{"-ps", "-c", "8", "in"}, files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, stdin: "", want: "48656c6c6f2c2077\n6f726c64210a0001\n7f20746162096865\n7265\n"},
		{name: "seek length", args: []string{"-s", "5", "-l", "10", "in"}, files: map[string]string{"in": "abcdefghijklmnopqrstuvwxyz"}, stdin: "", want: "00000005: 6667 6869 6a6b 6c6d 6e6f                 fghijklmno\n"},
		{name: "seek from end", args: []string{"-s", "-4", "in"}, files: map[string]string{"in": "abcdefghijklmnopqrstuvwxyz"}, stdin: "", want: "00000016: 7778 797a                                wxyz\n"},
		{name: "seek stdin", args: []string{"-s", "3"}, files: nil, stdin: "abcdefgh", want: "00000003: 6465 6667 68                             defgh\n"},
		{name: "seek past stdin", args: []string{"-s", "30"}, files: nil, stdin: "abcdefgh", want: ""},
		{name: "include", args: []string{"-i", "my-file.bin"}, files: map[string]string{"my-file.bin": "Hello!"}, stdin: "", want: "unsigned char my_file_bin[] = {\n  0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x21\n};\nunsigned int my_file_bin_len = 6;\n"},
		{name: "include stdin", args: []string{"-i"}, files: nil, stdin: "Hello!", want: "  0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x21\n"},
		{name: "include named", args: []string{"-i", "-n", "data", "-C", "f"}, files: map[string]string{"f": "Hello!"}, stdin: "", want: "unsigned char DATA[] = {\n  0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x21\n};\nunsigned int DATA_LEN = 6;\n"},
		{name: "include digit", args: []string{"-i", "9lives"}, files: map[string]string{"9lives": "ab"}, stdin: "", want: "unsigned char __9lives[] = {\n  0x61, 0x62\n};\nunsigned int __9lives_len = 2;\n"},
		{name: "bits", args: []string{"-b", "in"}, files: map[string]string{"in": "ABCDEFGHIJ"}, stdin: "", want: "00000000: 01000001 01000010 01000011 01000100 01000101 01000110  ABCDEF\n00000006: 01000111 01001000 01001001 01001010                    GHIJ\n"},
		{name: "little endian", args: []string{"-e", "in"}, files: map[string]string{"in": "ABCDEFGHIJ"}, stdin: "", want: "00000000: 44434241 48474645     4a49           ABCDEFGHIJ\n"},
		{name: "decimal offset", args: []string{"-d", "-o", "100", "in"}, files: map[string]string{"in": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}, stdin: "", want: "00000100: 4142 4344 4546 4748 494a 4b4c 4d4e 4f50  ABCDEFGHIJKLMNOP\n00000116: 5152 5354 5556 5758 595a                 QRSTUVWXYZ\n"},
		{name: "autoskip", args: []string{"-a", "-c", "8", "in"}, files: map[string]string{"in": "ab\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000cd"}, stdin: "", want: "00000000: 6162 0000 0000 0000  ab......\n00000008: 0000 0000 0000 0000  ........\n*\n00000050: 0000 6364            ..cd\n"},
		{name: "reverse", args: []string{"-r"}, files: nil, stdin: "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 210a 0001  Hello, world!...\n00000010: 7f20 7461 6209 6865 7265                 . tab.here\n", want: "Hello, world!\n\u0000\u0001\u007f tab\there"},
		{name: "reverse plain", args: []string{"-r", "-p"}, files: nil, stdin: "48 65 6c\n6c 6fzz 41\n", want: "Hello"},
		{name: "reverse offset", args: []string{"-r"}, files: nil, stdin: "00000004: 4142 4344\n", want: "\u0000\u0000\u0000\u0000ABCD"},
		{name: "missing", args: []string{"nope"}, files: nil, stdin: "", want: ""},
		{name: "bad cols", args: []string{"-c", "300", "in"}, files: map[string]string{"in": "ab"}, stdin: "", want: ""},
		{name: "bad revert", args: []string{"-r", "-b", "in"}, files: map[string]string{"in": "ab"}, stdin: "", want: ""},
		{name: "bad group", args: []string{"-e", "-g", "3", "in"}, files: map[string]string{"in": "ab"}, stdin: "", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			got := env.Run(Run, append([]string{"xxd"}, tc.args...)...)
			if tc.want != "" && got.Stdout != tc.want {
				t.Errorf("stdout = %q, want %q", got.Stdout, tc.want)
			}
			out, errs, code, ok := runReal(t, "xxd", tc)
			if !ok {
				return
			}
			if got.Stdout != out || got.Stderr != errs || got.Code != code {
				t.Errorf("got (%q, %q, %d), real tool (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out, errs, code)
			}
		})
	}
}

func readFile(t *testing.T, r cmdtest.Result, name string) string {
	t.Helper()
	f, err := r.FS.Open("/work/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return b.String()
}

func TestOutputFileAndPatching(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"in": "abc", "target": "AAAAAAAAAA", "dump": "00000002: 4243\n"}}
	fsys := env.NewFS()
	r := env.RunIn(fsys, Run, "xxd", "in", "out.hex")
	if r.Code != 0 {
		t.Fatalf("xxd in out.hex: %+v", r)
	}
	if got := readFile(t, r, "out.hex"); got != "00000000: 6162 63                                  abc\n" {
		t.Errorf("out.hex = %q", got)
	}
	// Reverting into an existing file patches it in place.
	r = env.RunIn(fsys, Run, "xxd", "-r", "dump", "target")
	if r.Code != 0 {
		t.Fatalf("xxd -r dump target: %+v", r)
	}
	if got := readFile(t, r, "target"); got != "AABCAAAAAA" {
		t.Errorf("patched target = %q", got)
	}
	// A dump that goes backwards cannot be written to a pipe.
	env2 := cmdtest.Env{Stdin: "00000010: 4142\n00000004: 43\n"}
	r = env2.Run(Run, "xxd", "-r")
	if r.Code != 5 || r.Stderr != "xxd: Sorry, cannot seek backwards.\n" {
		t.Errorf("backwards revert: %+v", r)
	}
	r = env.RunIn(fsys, Run, "xxd", "in", "nodir/out")
	if r.Code != 3 || r.Stderr != "xxd: nodir/out: No such file or directory\n" {
		t.Errorf("bad output file: %+v", r)
	}
}
