package interp

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
)

// stream is an open description a descriptor refers to: reads come from
// r, writes go to w. Descriptors (in any frame) hold references; the
// closer runs when the last one goes.
type stream struct {
	mu     sync.Mutex
	r      io.Reader
	w      io.Writer
	closer io.Closer
	refs   atomic.Int32
	file   any         // the underlying file when it is one (a regular file, for commands)
	pipe   *pipeReader // r's pipe, when r reads one: read -t interrupts it
}

func newStream(r io.Reader, w io.Writer, c io.Closer) *stream {
	s := &stream{r: r, w: w, closer: c}
	s.pipe, _ = r.(*pipeReader)
	s.refs.Store(0)
	return s
}

func (s *stream) ref() *stream {
	s.refs.Add(1)
	return s
}

func (s *stream) unref() {
	if s.refs.Add(-1) == 0 && s.closer != nil {
		s.closer.Close()
	}
}

// reader returns the stream's reader, buffered once so that line reads
// (read, mapfile) and the commands after them share what was read ahead.
func (s *stream) reader() io.Reader {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r
}

func (s *stream) buffered() *bufio.Reader {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r == nil {
		return nil
	}
	if br, ok := s.r.(*bufio.Reader); ok {
		return br
	}
	br := bufio.NewReaderSize(s.r, 4096)
	s.r = br
	return br
}

// fdTab is a frame's descriptor table.
type fdTab struct {
	fds []*stream
}

func (t *fdTab) get(n int) *stream {
	if n < 0 || n >= len(t.fds) {
		return nil
	}
	return t.fds[n]
}

// set points n at s (nil closes n), dropping the old reference.
func (t *fdTab) set(n int, s *stream) {
	for len(t.fds) <= n {
		t.fds = append(t.fds, nil)
	}
	old := t.fds[n]
	if s != nil {
		s.ref()
	}
	t.fds[n] = s
	if old != nil {
		old.unref()
	}
}

// fork copies the table for a subshell: both hold references.
func (t *fdTab) fork() *fdTab {
	c := &fdTab{fds: make([]*stream, len(t.fds))}
	for i, s := range t.fds {
		if s != nil {
			c.fds[i] = s.ref()
		}
	}
	return c
}

// release drops every reference of the table (a frame that ended).
func (t *fdTab) release() {
	for i, s := range t.fds {
		if s != nil {
			s.unref()
			t.fds[i] = nil
		}
	}
}

// free returns the lowest free descriptor from 10 up, for {var}>file.
func (t *fdTab) free() int {
	for n := 10; ; n++ {
		if t.get(n) == nil {
			return n
		}
	}
}

func (t *fdTab) writer(n int) io.Writer {
	if s := t.get(n); s != nil && s.w != nil {
		return s.w
	}
	return badFD{n}
}

func (t *fdTab) readerOf(n int) io.Reader {
	if s := t.get(n); s != nil && s.r != nil {
		return s.reader()
	}
	return badFD{n}
}

func (t *fdTab) writeString(n int, s string) error {
	_, err := io.WriteString(t.writer(n), s)
	return err
}

func (t *fdTab) printf(n int, format string, args ...any) {
	if len(args) == 0 {
		t.writeString(n, format)
		return
	}
	t.writeString(n, fmt.Sprintf(format, args...))
}

// badFD is a closed descriptor: reads and writes fail.
type badFD struct{ n int }

var errBadFD = fmt.Errorf("Bad file descriptor")

func (b badFD) Read([]byte) (int, error)  { return 0, errBadFD }
func (b badFD) Write([]byte) (int, error) { return 0, errBadFD }

// limitedBuffer is a command substitution's capture, charged to the
// memory budget as it grows.
type limitedBuffer struct {
	mu     sync.Mutex
	chunks [][]byte // full chunks, then the one being filled
	n      int
	bud    *Budget
}

const captureChunk = 64 << 10

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if l.bud != nil && !l.bud.charge(int64(len(p))) {
		l.bud.charge(-int64(len(p)))
		return 0, errMemory
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	// Fixed-size chunks: the capture never copies itself while growing,
	// so it holds no more than what was written.
	written := len(p)
	l.n += len(p)
	for len(p) > 0 {
		k := len(l.chunks) - 1
		if k < 0 || len(l.chunks[k]) == cap(l.chunks[k]) {
			size := captureChunk
			if k < 0 && len(p) < size {
				size = max(len(p), 512)
			}
			l.chunks = append(l.chunks, make([]byte, 0, size))
			k++
		}
		c := l.chunks[k]
		m := min(cap(c)-len(c), len(p))
		l.chunks[k] = append(c, p[:m]...)
		p = p[m:]
	}
	return written, nil
}

// Len is the size of the capture.
func (l *limitedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.chunks) == 1 {
		return string(l.chunks[0])
	}
	var b strings.Builder
	b.Grow(l.n)
	for _, c := range l.chunks {
		b.Write(c)
	}
	return b.String()
}

// nopCloser wraps a writer or reader that the table must not close.
type nopCloser struct{}

func (nopCloser) Close() error { return nil }
