package cmdtest

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
)

// writeForever writes until a write fails or its context ends: 141 on a
// broken pipe, 130 on cancel.
func writeForever(ctx context.Context, c *builtins.Call) int {
	for ctx.Err() == nil {
		if _, err := io.WriteString(c.Stdout, "abc"); err != nil {
			if errors.Is(err, builtins.ErrPipeClosed) {
				return 141
			}
			return 1
		}
	}
	return 130
}

func TestPipeAfter(t *testing.T) {
	r := (&Env{PipeAfter: 10}).Run(writeForever, "w")
	if r.Code != 141 || r.Stdout != "abcabcabca" {
		t.Errorf("code %d stdout %q", r.Code, r.Stdout)
	}
}

func TestRunCancelled(t *testing.T) {
	if r := (&Env{}).RunCancelled(t, 10*time.Millisecond, writeForever, "w"); r.Code != 130 {
		t.Errorf("code %d", r.Code)
	}
}
