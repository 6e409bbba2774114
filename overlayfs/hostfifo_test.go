//go:build linux

package overlayfs

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TM-RES-009, TM-FS-011: a FIFO on a host volume: mkfifo makes a real
// one, the sandbox's own opens of it meet in a pipe of the process (the
// host FIFO is never opened), and the pipe is dropped once every end is
// closed; a FIFO the host made is refused with ENXIO, never waited on.
func TestHostFifo(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "hostmade"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := NewHostFs(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	m := NewMeteredHost(h, &WriteQuota{})
	if err := m.Mkfifo("/p", 0o640); err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	if err := syscall.Lstat(filepath.Join(dir, "p"), &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO || st.Mode&0o777 != 0o640 {
		t.Fatalf("host entry: mode %o, %v", st.Mode, err)
	}
	if err := m.Mkfifo("/p", 0o640); !errors.Is(err, syscall.EEXIST) {
		t.Errorf("second mkfifo: %v", err)
	}
	if _, err := h.OpenFile("/p", os.O_RDONLY, 0); !errors.Is(err, syscall.ENXIO) {
		t.Errorf("plain open of a host FIFO: %v, want ENXIO (TM-FS-011)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, flag := range []int{os.O_RDONLY, os.O_WRONLY, os.O_RDWR} {
		if _, err := m.OpenFileContext(ctx, "/hostmade", flag, 0); !errors.Is(err, syscall.ENXIO) {
			t.Errorf("open %d of a FIFO the host made: %v, want ENXIO at once", flag, err)
		}
	}
	got := make(chan string, 1)
	go func() {
		r, err := m.OpenFileContext(ctx, "/p", os.O_RDONLY, 0)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(r)
		r.Close()
		got <- string(b)
	}()
	w, err := m.OpenFileContext(ctx, "/p", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := w.Stat(); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("stat of the open end: %v %v", fi, err)
	}
	w.Write([]byte("through"))
	w.Close()
	if s := <-got; s != "through" {
		t.Errorf("read %q", s)
	}
	h.fifos.mu.Lock()
	left := len(h.fifos.pipes)
	h.fifos.mu.Unlock()
	if left != 0 {
		t.Errorf("%d pipes left after every end closed", left)
	}
	// A reader nobody writes to ends with its context.
	short, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if _, err := m.OpenFileContext(short, "/p", os.O_RDONLY, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("lonely reader: %v", err)
	}
	ro, _ := NewHostFs(dir, true)
	defer ro.Close()
	if err := ro.Mkfifo("/q", 0o644); !errors.Is(err, syscall.EROFS) {
		t.Errorf("mkfifo on a read-only layer: %v", err)
	}
}

// An overlay makes its FIFOs in memory; a FIFO of its base (made on the
// host) is refused, and copied up by chmod stays a FIFO; the host
// directory is untouched.
func TestOverlayFifo(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "hostp"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, _ := NewHostFs(dir, true)
	defer h.Close()
	o := NewOverlay(h, NewMemFs(nil))
	if err := o.Mkfifo("/p", 0o644); err != nil {
		t.Fatal(err)
	}
	if err := o.Mkfifo("/hostp", 0o644); !errors.Is(err, syscall.EEXIST) {
		t.Errorf("mkfifo over a base entry: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "p")); !os.IsNotExist(err) {
		t.Errorf("the overlay's FIFO reached the host: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := o.OpenFileContext(ctx, "/hostp", os.O_RDONLY, 0); !errors.Is(err, syscall.ENXIO) {
		t.Errorf("open of the base's FIFO: %v, want ENXIO", err)
	}
	if err := o.Chmod("/hostp", 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/p", "/hostp"} {
		rw, err := o.OpenFileContext(ctx, name, os.O_RDWR, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rw.Write([]byte("x"))
		b := make([]byte, 2)
		if n, err := rw.Read(b); n != 1 || err != nil {
			t.Errorf("%s: read %d %v", name, n, err)
		}
		rw.Close()
	}
	if fi, _, err := o.LstatIfPossible("/hostp"); err != nil || fi.Mode().Type() != os.ModeNamedPipe || fi.Mode().Perm() != 0o600 {
		t.Errorf("copied-up FIFO: %v %v", fi, err)
	}
}
