package rev

import (
	"bytes"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func TestRev(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "stdin", Stdin: "abc\nhello world\n", Want: "cba\ndlrow olleh\n"},
		{Name: "no trailing newline", Stdin: "abc\nxy", Want: "cba\nyx"},
		{Name: "utf8", Stdin: "héllo\nñandú\n", Want: "olléh\núdnañ\n"},
		{Name: "files", Args: []string{"a", "b"}, Files: map[string]string{"a": "12\n", "b": "34\n56"}, Want: "21\n43\n65"},
		{Name: "missing", Args: []string{"a", "nope", "b"}, Files: map[string]string{"a": "12\n", "b": "34\n"}, Want: "21\n43\n"},
		{Name: "invalid utf8", Stdin: "ab\ncd\xffe\nfg\n", Want: "ba\n"},
		{Name: "crlf", Stdin: "ab\r\n", Want: "\rba\n"},
		{Name: "empty lines", Stdin: "\n\nx\n", Want: "\n\nx\n"},
		{Name: "bad option", Args: []string{"-Q"}},
		{Name: "bad long option", Args: []string{"--frob"}},
		{Name: "dash is a file", Args: []string{"-"}, Stdin: "abc\n"},
	}
	gnutest.CheckCases(t, "rev", Run, cases)
}

func TestHelpVersion(t *testing.T) {
	env := cmdtest.Env{}
	if r := env.Run(Run, "rev", "--help"); r.Code != 0 || !bytes.Contains([]byte(r.Stdout), []byte("Usage: rev")) {
		t.Errorf("--help: %+v", r)
	}
	if r := env.Run(Run, "rev", "-V"); r.Code != 0 || r.Stdout == "" {
		t.Errorf("-V: %+v", r)
	}
}
