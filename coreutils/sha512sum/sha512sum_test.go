package sha512sum

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRun(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "hello\n"}).Run(Run, "sha512sum")
	if r.Code != 0 || r.Stdout != "e7c22b994c59d9cf2b48e549b1e24666636045930d3da7c1acb299d1c3b7f931f94aae41edda2c2b207a36e10f8bcb8d45223e54878f5b316e7ce3b6bc019629  -\n" || r.Stderr != "" {
		t.Errorf("sha512sum: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha512sum", "--frob")
	if r.Code != 1 || r.Stderr != "sha512sum: unrecognized option '--frob'\nTry 'sha512sum --help' for more information.\n" {
		t.Errorf("bad option: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "sha512sum", "--version")
	if r.Code != 0 || r.Stdout == "" {
		t.Errorf("version: %+v", r)
	}
}
