package interp

import (
	"errors"
	"io"
	"testing"
)

func TestPipeInterruptKeepsData(t *testing.T) {
	r, w := newPipe()
	stop := make(chan struct{})
	close(stop)
	r.setInterrupt(stop)
	if n, err := r.Read(make([]byte, 4)); n != 0 || !errors.Is(err, errInterrupted) {
		t.Fatalf("interrupted read: %d %v", n, err)
	}
	r.setInterrupt(nil)
	go func() { w.Write([]byte("hello")); w.Close() }()
	data, err := io.ReadAll(r)
	if string(data) != "hello" || err != nil {
		t.Fatalf("after the interrupt: %q %v", data, err)
	}
}

func TestPipeCloseReasons(t *testing.T) {
	r, w := newPipe()
	r.CloseWithError(errors.New("gone"))
	if _, err := w.Write([]byte("x")); err == nil || err.Error() != "gone" {
		t.Fatalf("write after the reader closed: %v", err)
	}
	r, w = newPipe()
	w.Close()
	if _, err := r.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("read after the writer closed: %v", err)
	}
	r.Close()
	if _, err := w.Write([]byte("x")); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("write after both closed: %v", err)
	}
}
