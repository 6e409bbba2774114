package gunzip_test

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/gunzip"
)

// hello is "hello\n" as GNU gzip compresses it, with the name "h".
const hello = "\x1f\x8b\x08\x08\x25\x7d\x93\x65\x00\x03h\x00\xcb\x48\xcd\xc9\xc9\xe7\x02\x00\x20\x30\x3a\x36\x06\x00\x00\x00"

func TestInPlace(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"x.gz": hello, "y.tgz": hello}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, gunzip.Run, "gunzip", "x.gz", "y.tgz")
	if res.Code != 0 || res.Stderr != "" {
		t.Fatalf("%d %q", res.Code, res.Stderr)
	}
	for _, name := range []string{"/work/x", "/work/y.tar"} {
		if _, err := fsys.Stat(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := fsys.Stat("/work/x.gz"); err == nil {
		t.Errorf("x.gz kept")
	}
}

func TestHelpIsGunzips(t *testing.T) {
	res := (&cmdtest.Env{}).Run(gunzip.Run, "gunzip", "--help")
	if res.Code != 0 || !strings.HasPrefix(res.Stdout, "Usage: gunzip [OPTION]... [FILE]...\nUncompress FILEs (by default, in-place).\n") {
		t.Errorf("%d %q", res.Code, res.Stdout)
	}
}
