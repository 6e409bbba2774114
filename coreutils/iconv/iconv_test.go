package iconv_test

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/iconv"
)

func TestConvert(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		in, out    string
		code       int
		stderrWant string
	}{
		{[]string{"-f", "latin1", "-t", "utf-8"}, "caf\xe9", "café", 0, ""},
		{[]string{"-f", "utf-8", "-t", "ascii"}, "abé", "ab", 1, "iconv: illegal input sequence at position 2\n"},
		{[]string{"-f", "utf-8", "-t", "ascii//TRANSLIT"}, "é€中", "eEUR?", 0, ""},
		{[]string{"-f", "utf-8", "-t", "ascii//IGNORE"}, "aéb", "ab", 1, "iconv: illegal input sequence at position 4\n"},
		{[]string{"-c", "-f", "utf-8", "-t", "ascii"}, "aéb", "ab", 0, ""},
		{[]string{"-f", "utf-8", "-t", "utf-16"}, "a", "\xff\xfea\x00", 0, ""},
		{[]string{"-f", "utf-16", "-t", "utf-8"}, "\xfe\xff\x00a", "a", 0, ""},
		{[]string{"-f", "utf-8", "-t", "latin1"}, "a\xc3", "a", 1, "iconv: incomplete character or shift sequence at end of buffer\n"},
		{[]string{"-f", "nope", "-t", "utf-8"}, "", "", 1, "iconv: failed to start conversion processing: No such file or directory\n"},
	} {
		e := &cmdtest.Env{Stdin: tc.in}
		r := e.Run(iconv.Run, append([]string{"iconv"}, tc.args...)...)
		if r.Stdout != tc.out || r.Code != tc.code || r.Stderr != tc.stderrWant {
			t.Errorf("%q on %q: %q %d %q", tc.args, tc.in, r.Stdout, r.Code, r.Stderr)
		}
	}
}
