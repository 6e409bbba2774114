package gzip_test

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/gunzip"
	"github.com/bashbox/bashbox/coreutils/gzip"
)

func TestRoundTrip(t *testing.T) {
	res := (&cmdtest.Env{Stdin: "hello\n"}).Run(gzip.Run, "gzip", "-c")
	if res.Code != 0 || !strings.HasPrefix(res.Stdout, "\x1f\x8b\x08") {
		t.Fatalf("%d %q", res.Code, res.Stderr)
	}
	back := (&cmdtest.Env{Stdin: res.Stdout}).Run(gzip.Run, "gzip", "-d")
	if back.Stdout != "hello\n" || back.Code != 0 {
		t.Errorf("%q %q %d", back.Stdout, back.Stderr, back.Code)
	}
	back = (&cmdtest.Env{Stdin: res.Stdout}).Run(gunzip.Run, "gunzip")
	if back.Stdout != "hello\n" || back.Code != 0 {
		t.Errorf("gunzip: %q %q %d", back.Stdout, back.Stderr, back.Code)
	}
}

func TestHelp(t *testing.T) {
	res := (&cmdtest.Env{}).Run(gzip.Run, "gzip", "--help")
	if res.Code != 0 || !strings.HasPrefix(res.Stdout, "Usage: gzip [OPTION]... [FILE]...\n") {
		t.Errorf("%d %q", res.Code, res.Stdout)
	}
	res = (&cmdtest.Env{}).Run(gzip.Run, "gzip", "-Q")
	if res.Code != 1 || res.Stderr != "gzip: invalid option -- 'Q'\nTry `gzip --help' for more information.\n" {
		t.Errorf("%d %q", res.Code, res.Stderr)
	}
}
