package bashtool

import (
	"fmt"
	"io"
	"os"
	"sync"
	"unicode/utf8"
)

// Output limits.
const (
	// ForegroundOutputLimit is how much of a foreground command's output the
	// result shows: the first and last halves, with a note in between.
	ForegroundOutputLimit = 100 << 10
	// BackgroundBufferLimit caps each unread stream of a background shell.
	BackgroundBufferLimit = 1 << 20
	// savedOutputLimit caps the full-output file, so a runaway command
	// cannot fill the disk.
	savedOutputLimit = 64 << 20
)

// headTail keeps the first and last limit/2 bytes of a stream and writes
// the whole stream (up to savedOutputLimit) to a file.
type headTail struct {
	mu    sync.Mutex
	limit int
	head  []byte
	tail  []byte // ring buffer once full
	pos   int    // next write position in tail when full
	full  bool
	total int64
	file  *os.File
	saved int64
}

func newHeadTail(limit int, file *os.File) *headTail {
	return &headTail{limit: limit, file: file}
}

func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(p)
	h.total += int64(n)
	if h.file != nil && h.saved < savedOutputLimit {
		chunk := p
		if rem := savedOutputLimit - h.saved; int64(len(chunk)) > rem {
			chunk = chunk[:rem]
		}
		if _, err := h.file.Write(chunk); err == nil {
			h.saved += int64(len(chunk))
		}
	}
	half := h.limit / 2
	if room := half - len(h.head); room > 0 {
		take := min(room, len(p))
		h.head = append(h.head, p[:take]...)
		p = p[take:]
	}
	tailCap := h.limit - half
	for len(p) > 0 {
		if !h.full {
			take := min(tailCap-len(h.tail), len(p))
			h.tail = append(h.tail, p[:take]...)
			p = p[take:]
			if len(h.tail) == tailCap {
				h.full = true
				h.pos = 0
			}
			continue
		}
		if len(p) >= tailCap {
			copy(h.tail, p[len(p)-tailCap:])
			h.pos = 0
			p = nil
			continue
		}
		c := copy(h.tail[h.pos:], p)
		h.pos = (h.pos + c) % tailCap
		p = p[c:]
	}
	return n, nil
}

// render returns the kept text and whether anything was left out.
func (h *headTail) render(savedPath string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	tail := h.tail
	if h.full {
		tail = append(append([]byte{}, h.tail[h.pos:]...), h.tail[:h.pos]...)
	}
	if h.total <= int64(h.limit) {
		return string(h.head) + string(tail), false
	}
	head := trimIncompleteEnd(h.head)
	tail = trimIncompleteStart(tail)
	omitted := h.total - int64(len(head)) - int64(len(tail))
	note := fmt.Sprintf("\n\n[... %d bytes of output omitted (total %d bytes)", omitted, h.total)
	if savedPath != "" {
		note += "; the full output is in " + savedPath
		if h.total > savedOutputLimit {
			note += fmt.Sprintf(" (its first %d bytes)", savedOutputLimit)
		}
	}
	note += " ...]\n\n"
	return string(head) + note + string(tail), true
}

func trimIncompleteEnd(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		r, size := utf8.DecodeLastRune(b)
		if r != utf8.RuneError || size != 1 {
			return b
		}
		b = b[:len(b)-1]
	}
	return b
}

func trimIncompleteStart(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
		b = b[1:]
	}
	return b
}

// streamBuffer holds a background stream's output not yet read. When more
// than limit bytes pile up unread, the oldest are dropped and counted.
type streamBuffer struct {
	mu      sync.Mutex
	limit   int
	data    []byte
	dropped int64
}

var _ io.Writer = (*streamBuffer)(nil)

func (b *streamBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.data = append(b.data, p...)
	if over := len(b.data) - b.limit; over > 0 {
		b.dropped += int64(over)
		b.data = append(b.data[:0:0], b.data[over:]...)
	}
	return len(p), nil
}

// take returns and clears the unread output and the count of bytes
// dropped since the last take.
func (b *streamBuffer) take() (string, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, d := string(b.data), b.dropped
	b.data, b.dropped = nil, 0
	return s, d
}
