package pr

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestColumns(t *testing.T) {
	e := cmdtest.Env{Stdin: "1\n2\n3\n4\n5\n"}
	r := e.Run(Run, "pr", "-t", "-2", "-w", "20")
	if r.Stdout != "1\t  4\n2\t  5\n3\n" {
		t.Fatalf("pr -2 = %q %q", r.Stdout, r.Stderr)
	}
	r = e.Run(Run, "pr", "-l", "12", "-h", "T")
	if n := strings.Count(r.Stdout, "\n"); n != 36 || !strings.Contains(r.Stdout, "T") {
		t.Fatalf("pages: %d lines\n%s", n, r.Stdout)
	}
}
