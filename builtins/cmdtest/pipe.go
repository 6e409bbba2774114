package cmdtest

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
)

// pipeWriter keeps the first n bytes written to it, then fails as a pipe
// whose reader has closed does, so a test sees how a command takes
// SIGPIPE without a real pipe.
type pipeWriter struct {
	buf *bytes.Buffer
	n   int
}

func (w *pipeWriter) Write(p []byte) (int, error) {
	if room := w.n - w.buf.Len(); len(p) > room {
		w.buf.Write(p[:room])
		return room, builtins.ErrPipeClosed
	}
	return w.buf.Write(p)
}

// RunCancelled runs cmd with args in e, cancelling its context after
// delay, and fails the test unless the command then returns within five
// seconds with a non-zero status. Standard output is discarded: the
// command may write without end until it is cancelled.
func (e *Env) RunCancelled(t testing.TB, delay time.Duration, cmd builtins.Command, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), delay)
	defer cancel()
	fsys := e.NewFS()
	done := make(chan Result, 1)
	go func() { done <- e.run(ctx, fsys, io.Discard, &bytes.Buffer{}, cmd, args) }()
	select {
	case r := <-done:
		if r.Code == 0 {
			t.Errorf("%s: cancelled, returned 0", args[0])
		}
		return r
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: did not stop within 5s of its cancel", args[0])
		return Result{}
	}
}
