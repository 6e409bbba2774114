package xxd

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestXxdAgainstReal(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "default", Args: []string{"in"}, Files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, Want: "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 210a 0001  Hello, world!...\n00000010: 7f20 7461 6209 6865 7265                 . tab.here\n"},
		{Name: "stdin", Args: []string{}, Stdin: "Hello, world!\n\u0000\u0001\u007f tab\there", Want: "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 210a 0001  Hello, world!...\n00000010: 7f20 7461 6209 6865 7265                 . tab.here\n"},
		{Name: "cols groups", Args: []string{"-c", "8", "-g", "4", "in"}, Files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, Want: "00000000: 48656c6c 6f2c2077  Hello, w\n00000008: 6f726c64 210a0001  orld!...\n00000010: 7f207461 62096865  . tab.he\n00000018: 7265               re\n"},
		{Name: "upper", Args: []string{"-g", "1", "-u", "in"}, Files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, Want: "00000000: 48 65 6C 6C 6F 2C 20 77 6F 72 6C 64 21 0A 00 01  Hello, world!...\n00000010: 7F 20 74 61 62 09 68 65 72 65                    . tab.here\n"},
		{Name: "odd groups", Args: []string{"-c7", "-g3", "in"}, Files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, Want: "00000000: 48656c 6c6f2c 20  Hello, \n00000007: 776f72 6c6421 0a  world!.\n0000000e: 00017f 207461 62  ... tab\n00000015: 096865 7265       .here\n"},
		{Name: "plain", Args: []string{"-p", "in"}, Files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\thereHello, world!\n\u0000\u0001\u007f tab\thereHello, world!\n\u0000\u0001\u007f tab\there"}, Want: "48656c6c6f2c20776f726c64210a00017f20746162096865726548656c6c\n6f2c20776f726c64210a00017f20746162096865726548656c6c6f2c2077\n6f726c64210a00017f207461620968657265\n"},
		{Name: "plain cols", Args: []string{"-ps", "-c", "8", "in"}, Files: map[string]string{"in": "Hello, world!\n\u0000\u0001\u007f tab\there"}, Want: "48656c6c6f2c2077\n6f726c64210a0001\n7f20746162096865\n7265\n"},
		{Name: "seek length", Args: []string{"-s", "5", "-l", "10", "in"}, Files: map[string]string{"in": "abcdefghijklmnopqrstuvwxyz"}, Want: "00000005: 6667 6869 6a6b 6c6d 6e6f                 fghijklmno\n"},
		{Name: "seek from end", Args: []string{"-s", "-4", "in"}, Files: map[string]string{"in": "abcdefghijklmnopqrstuvwxyz"}, Want: "00000016: 7778 797a                                wxyz\n"},
		{Name: "seek stdin", Args: []string{"-s", "3"}, Stdin: "abcdefgh", Want: "00000003: 6465 6667 68                             defgh\n"},
		{Name: "seek past stdin", Args: []string{"-s", "30"}, Stdin: "abcdefgh"},
		{Name: "include", Args: []string{"-i", "my-file.bin"}, Files: map[string]string{"my-file.bin": "Hello!"}, Want: "unsigned char my_file_bin[] = {\n  0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x21\n};\nunsigned int my_file_bin_len = 6;\n"},
		{Name: "include stdin", Args: []string{"-i"}, Stdin: "Hello!", Want: "  0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x21\n"},
		{Name: "include named", Args: []string{"-i", "-n", "data", "-C", "f"}, Files: map[string]string{"f": "Hello!"}, Want: "unsigned char DATA[] = {\n  0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x21\n};\nunsigned int DATA_LEN = 6;\n"},
		{Name: "include digit", Args: []string{"-i", "9lives"}, Files: map[string]string{"9lives": "ab"}, Want: "unsigned char __9lives[] = {\n  0x61, 0x62\n};\nunsigned int __9lives_len = 2;\n"},
		{Name: "bits", Args: []string{"-b", "in"}, Files: map[string]string{"in": "ABCDEFGHIJ"}, Want: "00000000: 01000001 01000010 01000011 01000100 01000101 01000110  ABCDEF\n00000006: 01000111 01001000 01001001 01001010                    GHIJ\n"},
		{Name: "little endian", Args: []string{"-e", "in"}, Files: map[string]string{"in": "ABCDEFGHIJ"}, Want: "00000000: 44434241 48474645     4a49           ABCDEFGHIJ\n"},
		{Name: "decimal offset", Args: []string{"-d", "-o", "100", "in"}, Files: map[string]string{"in": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}, Want: "00000100: 4142 4344 4546 4748 494a 4b4c 4d4e 4f50  ABCDEFGHIJKLMNOP\n00000116: 5152 5354 5556 5758 595a                 QRSTUVWXYZ\n"},
		{Name: "autoskip", Args: []string{"-a", "-c", "8", "in"}, Files: map[string]string{"in": "ab\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000cd"}, Want: "00000000: 6162 0000 0000 0000  ab......\n00000008: 0000 0000 0000 0000  ........\n*\n00000050: 0000 6364            ..cd\n"},
		{Name: "reverse", Args: []string{"-r"}, Stdin: "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 210a 0001  Hello, world!...\n00000010: 7f20 7461 6209 6865 7265                 . tab.here\n", Want: "Hello, world!\n\u0000\u0001\u007f tab\there"},
		{Name: "reverse plain", Args: []string{"-r", "-p"}, Stdin: "48 65 6c\n6c 6fzz 41\n", Want: "Hello"},
		{Name: "reverse offset", Args: []string{"-r"}, Stdin: "00000004: 4142 4344\n", Want: "\u0000\u0000\u0000\u0000ABCD"},
		{Name: "missing", Args: []string{"nope"}},
		{Name: "bad cols", Args: []string{"-c", "300", "in"}, Files: map[string]string{"in": "ab"}},
		{Name: "bad revert", Args: []string{"-r", "-b", "in"}, Files: map[string]string{"in": "ab"}},
		{Name: "bad group", Args: []string{"-e", "-g", "3", "in"}, Files: map[string]string{"in": "ab"}},
	}
	gnutest.CheckCases(t, "xxd", Run, cases)
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
