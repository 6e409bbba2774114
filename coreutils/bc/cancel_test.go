package bc

import (
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestCancelStopsLoop(t *testing.T) {
	(&cmdtest.Env{Stdin: "while (1) { x += 1 }\n"}).RunCancelled(t, 50*time.Millisecond, Run, "bc")
}

func TestBrokenPipe(t *testing.T) {
	r := (&cmdtest.Env{Stdin: "for (i = 0; i < 10000000; i++) i\n", PipeAfter: 100000}).Run(Run, "bc")
	if r.Code != 141 || r.Stderr != "" {
		t.Errorf("status %d, stderr %q", r.Code, r.Stderr)
	}
}
