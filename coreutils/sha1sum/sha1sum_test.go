package sha1sum

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "sha1sum")
	if r.Code != 0 || r.Stdout != "f572d396fae9206628714fb2ce00f72e94f2258f  -\n" || r.Stderr != "" {
		t.Errorf("sha1sum: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha1sum", "--frob")
	if r.Code != 1 || r.Stderr != "sha1sum: unrecognized option '--frob'\nTry 'sha1sum --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha1sum", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
