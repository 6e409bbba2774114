package csplit

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestSplit(t *testing.T) {
	e := cmdtest.Env{Files: map[string]string{"n": "1\n2\n3\n4\n5\n6\n"}}
	fsys := e.NewFS()
	r := e.RunIn(fsys, Run, "csplit", "n", "3", "/5/")
	if r.Stdout != "4\n4\n4\n" || r.Code != 0 {
		t.Fatalf("csplit = %q %q %d", r.Stdout, r.Stderr, r.Code)
	}
	r = e.RunIn(fsys, Run, "csplit", "n", "9")
	if r.Code != 1 || r.Stderr != "csplit: ‘9’: line number out of range\n" {
		t.Fatalf("out of range: %q %d", r.Stderr, r.Code)
	}
}

func TestSuffix(t *testing.T) {
	f, msg := parseSuffix("%03x.part")
	if msg != "" || f(26) != "01a.part" {
		t.Fatalf("suffix: %q", msg)
	}
	if _, msg := parseSuffix("%d%d"); msg == "" {
		t.Fatal("two conversions accepted")
	}
}
