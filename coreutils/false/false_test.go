package falsecmd

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestFalse(t *testing.T) {
	for _, args := range [][]string{nil, {"x"}, {"--help", "x"}} {
		r := (&cmdtest.Env{}).Run(Run, append([]string{"false"}, args...)...)
		if r.Code != 1 || r.Stdout != "" || r.Stderr != "" {
			t.Errorf("false %q: %+v", args, r)
		}
	}
	r := (&cmdtest.Env{}).Run(Run, "false", "--help")
	if r.Code != 1 || !strings.Contains(r.Stdout, "Exit with a status code indicating failure.") {
		t.Errorf("--help: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "false", "--version")
	if r.Code != 1 || r.Stdout != "false (bashbox) 0.1.0\n" {
		t.Errorf("--version: %+v", r)
	}
}
