package zcat_test

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/zcat"
)

const hello = "\x1f\x8b\x08\x08\x25\x7d\x93\x65\x00\x03h\x00\xcb\x48\xcd\xc9\xc9\xe7\x02\x00\x20\x30\x3a\x36\x06\x00\x00\x00"

func TestConcatenates(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"a.gz": hello, "b.gz": hello + hello}, Stdin: hello}
	res := env.Run(zcat.Run, "zcat", "a.gz", "-", "b")
	if res.Stdout != strings.Repeat("hello\n", 4) || res.Code != 0 || res.Stderr != "" {
		t.Errorf("%q %q %d", res.Stdout, res.Stderr, res.Code)
	}
	res = env.Run(zcat.Run, "zcat", "nope")
	if res.Stderr != "gzip: nope.gz: No such file or directory\n" || res.Code != 1 {
		t.Errorf("%q %d", res.Stderr, res.Code)
	}
}

func TestHelp(t *testing.T) {
	res := (&cmdtest.Env{}).Run(zcat.Run, "zcat", "--help")
	if res.Code != 0 || !strings.HasPrefix(res.Stdout, "Usage: zcat [OPTION]... [FILE]...\nUncompress FILEs to standard output.\n") {
		t.Errorf("%d %q", res.Code, res.Stdout)
	}
}
