package shuf

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

type limitWriter struct{ n int }

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, builtins.ErrPipeClosed
	}
	w.n -= len(p)
	return len(p), nil
}

func TestRepeatStopsOnBrokenPipe(t *testing.T) {
	var errb bytes.Buffer
	c := &builtins.Call{Args: []string{"shuf", "-r", "-e", "a", "b"}, Stdin: strings.NewReader(""), Stdout: &limitWriter{n: 1 << 20}, Stderr: &errb}
	if st := Run(context.Background(), c); st != 141 || errb.Len() != 0 {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
}
