package bc

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
)

func TestCancelStopsLoop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var out, errb bytes.Buffer
	c := &builtins.Call{Args: []string{"bc"}, Stdin: strings.NewReader("while (1) { x += 1 }\n"), Stdout: &out, Stderr: &errb}
	done := make(chan int)
	go func() { done <- Run(ctx, c) }()
	select {
	case st := <-done:
		if st == 0 {
			t.Errorf("cancelled bc returned 0")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("bc did not stop")
	}
}

type limitWriter struct{ n int }

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, builtins.ErrPipeClosed
	}
	w.n -= len(p)
	return len(p), nil
}

func TestBrokenPipe(t *testing.T) {
	var errb bytes.Buffer
	c := &builtins.Call{Args: []string{"bc"}, Stdin: strings.NewReader("for (i = 0; i < 10000000; i++) i\n"), Stdout: &limitWriter{n: 100000}, Stderr: &errb}
	if st := Run(context.Background(), c); st != 141 || errb.Len() != 0 {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
}
