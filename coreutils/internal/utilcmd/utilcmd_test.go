package utilcmd

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
)

type closedPipe struct{}

func (closedPipe) Write(p []byte) (int, error) { return 0, builtins.ErrPipeClosed }

func TestFinish(t *testing.T) {
	var errb bytes.Buffer
	c := &builtins.Call{Args: []string{"x"}, Stderr: &errb}
	o := NewOutput(closedPipe{})
	o.WriteString("data")
	if st := o.Finish(c, 0); st != 141 || errb.Len() != 0 {
		t.Errorf("broken pipe: %d %q", st, errb.String())
	}
	var out bytes.Buffer
	o = NewOutput(&out)
	o.WriteString("ok")
	if st := o.Finish(c, 3); st != 3 || out.String() != "ok" {
		t.Errorf("finish: %d %q", st, out.String())
	}
}

func TestQuotesAndTick(t *testing.T) {
	c := &builtins.Call{Args: []string{"x"}, Env: []string{"LC_ALL=C.UTF-8"}}
	if Q(c, "a") != "\u2018a\u2019" || F(c, "a b") != "'a b'" || AF(c, "a") != "'a'" {
		t.Errorf("quotes: %s %s %s", Q(c, "a"), F(c, "a b"), AF(c, "a"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var tick Tick
	stopped := false
	for i := 0; i < 2048 && !stopped; i++ {
		stopped = tick.Stop(ctx)
	}
	if !stopped {
		t.Error("tick never saw the cancellation")
	}
	if !strings.Contains(Trailer(), "--help") {
		t.Error("trailer")
	}
	_ = time.Second
}
