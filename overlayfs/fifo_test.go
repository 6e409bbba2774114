package overlayfs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func newFifo(t *testing.T) *MemFs {
	t.Helper()
	m := NewMemFs(nil)
	if err := m.Mkfifo("/p", 0o644); err != nil {
		t.Fatal(err)
	}
	return m
}

// opened runs open in a goroutine and reports whether it is still waiting
// after a while, then returns its result once it ends.
func openAsync(ctx context.Context, m *MemFs, flag int) <-chan openResult {
	ch := make(chan openResult, 1)
	go func() {
		f, err := m.OpenFileContext(ctx, "/p", flag, 0)
		ch <- openResult{f, err}
	}()
	return ch
}

type openResult struct {
	f   File
	err error
}

func waiting(ch <-chan openResult) bool {
	select {
	case <-ch:
		return false
	case <-time.After(50 * time.Millisecond):
		return true
	}
}

func TestFifoNode(t *testing.T) {
	m := newFifo(t)
	fi, _, err := m.LstatIfPossible("/p")
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 || fi.Mode().Perm() != 0o644 || fi.Size() != 0 {
		t.Fatalf("lstat: %v %v", fi, err)
	}
	if err := m.Mkfifo("/p", 0o644); !errors.Is(err, syscall.EEXIST) {
		t.Errorf("second mkfifo: %v, want EEXIST", err)
	}
	if err := m.Mkfifo("/no/p", 0o644); !errors.Is(err, syscall.ENOENT) {
		t.Errorf("mkfifo in a missing directory: %v, want ENOENT", err)
	}
	if _, err := m.OpenFileContext(context.Background(), "/p", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0); !errors.Is(err, syscall.EEXIST) {
		t.Errorf("O_EXCL: %v", err)
	}
}

func TestFifoOpenWaitsForTheOtherEnd(t *testing.T) {
	ctx := context.Background()
	for _, readerFirst := range []bool{true, false} {
		m := newFifo(t)
		first, second := os.O_RDONLY, os.O_WRONLY
		if !readerFirst {
			first, second = second, first
		}
		ch := openAsync(ctx, m, first)
		if !waiting(ch) {
			t.Fatalf("readerFirst=%v: the first open did not wait", readerFirst)
		}
		// The layer is not locked meanwhile.
		if err := m.Mkdir("/d", 0o755); err != nil {
			t.Fatal(err)
		}
		g, err := m.OpenFileContext(ctx, "/p", second, 0)
		if err != nil {
			t.Fatal(err)
		}
		r := <-ch
		if r.err != nil {
			t.Fatal(r.err)
		}
		w, rd := r.f, g
		if readerFirst {
			w, rd = g, r.f
		}
		if _, err := w.Write([]byte("hello")); err != nil {
			t.Fatal(err)
		}
		w.Close()
		b, err := io.ReadAll(rd)
		if err != nil || string(b) != "hello" {
			t.Errorf("read %q %v", b, err)
		}
		rd.Close()
	}
}

func TestFifoNonBlockingOpens(t *testing.T) {
	m := newFifo(t)
	ctx := context.Background()
	// O_RDWR never waits; a reader and a writer of its own.
	rw, err := m.OpenFileContext(ctx, "/p", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	rw.Close()
	// O_NONBLOCK: a read open succeeds, a write open without a reader fails.
	if _, err := m.OpenFileContext(ctx, "/p", os.O_WRONLY|syscall.O_NONBLOCK, 0); !errors.Is(err, syscall.ENXIO) {
		t.Errorf("non-blocking write open: %v, want ENXIO", err)
	}
	r, err := m.OpenFileContext(ctx, "/p", os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.Read(make([]byte, 4)); n != 0 || err != io.EOF {
		t.Errorf("read with no writer: %d %v, want EOF", n, err)
	}
	w, err := m.OpenFileContext(ctx, "/p", os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.Read(make([]byte, 4)); n != 0 || !errors.Is(err, syscall.EAGAIN) {
		t.Errorf("non-blocking read of an empty FIFO: %d %v, want EAGAIN", n, err)
	}
	w.Close()
	r.Close()
	// Without a context (plain OpenFile) nothing waits.
	if _, err := m.OpenFile("/p", os.O_WRONLY, 0); !errors.Is(err, syscall.ENXIO) {
		t.Errorf("OpenFile for writing without a reader: %v, want ENXIO", err)
	}
}

func TestFifoEOFAndBrokenPipe(t *testing.T) {
	m := newFifo(t)
	ctx := context.Background()
	rw, _ := m.OpenFileContext(ctx, "/p", os.O_RDWR, 0)
	w, err := m.OpenFileContext(ctx, "/p", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	rw.Close() // the only reader goes
	if _, err := w.Write([]byte("x")); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("write without a reader: %v, want EPIPE", err)
	}
	w.Close()
	// A reader whose writer came and went before it could read sees EOF.
	rw, _ = m.OpenFileContext(ctx, "/p", os.O_RDWR, 0)
	r, _ := m.OpenFileContext(ctx, "/p", os.O_RDONLY, 0)
	rw.Write([]byte("left"))
	rw.Close()
	b, err := io.ReadAll(r)
	if string(b) != "left" || err != nil {
		t.Errorf("read after the writer closed: %q %v", b, err)
	}
	r.Close()
	// Data nobody read is gone once every end is closed, as on Linux.
	rw, _ = m.OpenFileContext(ctx, "/p", os.O_RDWR|syscall.O_NONBLOCK, 0)
	if n, err := rw.Read(make([]byte, 1)); n != 0 || !errors.Is(err, syscall.EAGAIN) {
		t.Errorf("stale data: %d %v, want EAGAIN", n, err)
	}
	rw.Close()
}

func TestFifoBoundedBuffer(t *testing.T) {
	m := newFifo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	rw, _ := m.OpenFileContext(ctx, "/p", os.O_RDWR, 0)
	defer rw.Close()
	n, err := rw.Write(make([]byte, PipeBuf+10))
	if n != PipeBuf || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("overfull write: %d %v, want %d then the deadline", n, err, PipeBuf)
	}
	// A full FIFO refuses a non-blocking writer.
	w, _ := m.OpenFileContext(context.Background(), "/p", os.O_WRONLY|syscall.O_NONBLOCK, 0)
	defer w.Close()
	if _, err := w.Write([]byte("x")); !errors.Is(err, syscall.EAGAIN) {
		t.Errorf("non-blocking write to a full FIFO: %v, want EAGAIN", err)
	}
	// Reading makes room; a small write goes in whole (PIPE_BUF atomic).
	rw.Read(make([]byte, 100))
	if n, err := w.Write(make([]byte, 200)); n != 0 || !errors.Is(err, syscall.EAGAIN) {
		t.Errorf("small write with too little room: %d %v, want EAGAIN", n, err)
	}
	if n, err := w.Write(make([]byte, 100)); n != 100 || err != nil {
		t.Errorf("write of what fits: %d %v", n, err)
	}
}

// TM-RES-009: an open, read or write waiting on a FIFO ends with its
// context, holding no lock, and leaves nothing behind.
func TestFifoWaitsEndWithTheirContext(t *testing.T) {
	m := newFifo(t)
	base := runtime.NumGoroutine()
	for _, flag := range []int{os.O_RDONLY, os.O_WRONLY} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		_, err := m.OpenFileContext(ctx, "/p", flag, 0)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
			t.Errorf("open %d with nobody at the other end: %v after %v", flag, err, time.Since(start))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	rw, _ := m.OpenFileContext(ctx, "/p", os.O_RDWR, 0)
	done := make(chan error)
	go func() {
		_, err := rw.Read(make([]byte, 1))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("read of an empty FIFO after cancellation: %v", err)
	}
	rw.Close()
	m.mu.Lock() // no lock is left held
	m.mu.Unlock()
	p := mustPipe(t, m)
	if p.readers != 0 || p.writers != 0 {
		t.Errorf("after the cancelled opens: %d readers, %d writers", p.readers, p.writers)
	}
	settle(t, base)
}

func mustPipe(t *testing.T, m *MemFs) *pipe {
	t.Helper()
	n, err := m.walk("/p")
	if err != nil || n.pipe == nil {
		t.Fatalf("no pipe: %v", err)
	}
	n.pipe.mu.Lock()
	defer n.pipe.mu.Unlock()
	return &pipe{readers: n.pipe.readers, writers: n.pipe.writers}
}

func settle(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, base %d\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TM-RES-009: many readers, writers and read-writers opening, writing,
// reading, closing and being cancelled at random, on a few FIFOs, with
// renames and removals going on: nothing deadlocks, every goroutine ends
// with its context, no count of ends is left over, and every byte read was
// written. Run with -race.
func TestFifoConcurrentOpenersAndCancellations(t *testing.T) {
	q := &Quota{MaxBytes: 1 << 20}
	m := NewMemFs(q)
	names := []string{"/a", "/b", "/c"}
	for _, n := range names {
		if err := m.Mkfifo(n, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	base := runtime.NumGoroutine()
	var wg sync.WaitGroup
	for i := 0; i < 48; i++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(seed))
			for j := 0; j < 30; j++ {
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rng.Intn(20))*time.Millisecond)
				if rng.Intn(4) == 0 {
					cancel() // cancelled before it starts
				}
				name := names[rng.Intn(len(names))]
				flag := []int{os.O_RDONLY, os.O_WRONLY, os.O_RDWR, os.O_RDONLY | syscall.O_NONBLOCK, os.O_WRONLY | syscall.O_NONBLOCK}[rng.Intn(5)]
				f, err := m.OpenFileContext(ctx, name, flag, 0)
				if err == nil {
					buf := make([]byte, rng.Intn(3*pipeAtomic))
					for k := 0; k < 3; k++ {
						if flag&(os.O_WRONLY|os.O_RDWR) != 0 && rng.Intn(2) == 0 {
							for x := range buf {
								buf[x] = 'z'
							}
							f.Write(buf)
						} else if flag&os.O_WRONLY == 0 {
							n, _ := f.Read(buf)
							if strings.Trim(string(buf[:n]), "z") != "" {
								t.Errorf("read bytes nobody wrote: %q", buf[:n])
							}
						}
					}
					if rng.Intn(3) == 0 {
						go f.Close() // closed while another may still be waiting
					} else {
						f.Close()
					}
				}
				cancel()
			}
		}(int64(i))
	}
	waitDone := make(chan struct{})
	go func() { wg.Wait(); close(waitDone) }()
	select {
	case <-waitDone:
	case <-time.After(60 * time.Second):
		buf := make([]byte, 1<<20)
		t.Fatalf("deadlock\n%s", buf[:runtime.Stack(buf, true)])
	}
	settle(t, base)
	for _, n := range names {
		node, _ := m.walk(n)
		node.pipe.mu.Lock()
		r, w, held := node.pipe.readers, node.pipe.writers, len(node.pipe.buf)
		node.pipe.mu.Unlock()
		if r != 0 || w != 0 || held != 0 {
			t.Errorf("%s: %d readers, %d writers, %d bytes held after every end closed", n, r, w, held)
		}
	}
	if q.Bytes() != 0 {
		t.Errorf("%d bytes still charged", q.Bytes())
	}
}

// TM-RES-009: what a FIFO holds unread counts against the in-memory
// quota, and is given back as it is read or dropped.
func TestFifoDataIsCharged(t *testing.T) {
	q := &Quota{MaxBytes: 1000}
	m := NewMemFs(q)
	if err := m.Mkfifo("/p", 0o644); err != nil {
		t.Fatal(err)
	}
	rw, err := m.OpenFileContext(context.Background(), "/p", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := rw.Write(make([]byte, 800)); n != 800 || err != nil {
		t.Fatalf("write: %d %v", n, err)
	}
	if q.Bytes() != 800 {
		t.Errorf("held: %d, want 800", q.Bytes())
	}
	if _, err := rw.Write(make([]byte, 300)); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("write past the quota: %v, want ENOSPC", err)
	}
	rw.Read(make([]byte, 500))
	if q.Bytes() != 300 {
		t.Errorf("held after reading 500: %d, want 300", q.Bytes())
	}
	rw.Close()
	if q.Bytes() != 0 {
		t.Errorf("held after the last close: %d", q.Bytes())
	}
}
