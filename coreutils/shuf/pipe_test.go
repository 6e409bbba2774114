package shuf

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestRepeatStopsOnBrokenPipe(t *testing.T) {
	r := (&cmdtest.Env{PipeAfter: 1 << 20}).Run(Run, "shuf", "-r", "-e", "a", "b")
	if r.Code != 141 || r.Stderr != "" {
		t.Errorf("status %d, stderr %q", r.Code, r.Stderr)
	}
}
