package bashbox

import (
	"fmt"
	"io"
	"sync"
)

// outputHardFactor: past this many times its budget, output stops the
// script (budget "output") instead of only being truncated.
const outputHardFactor = 8

// capture collects one output stream within its budget. Up to limit bytes
// are kept: the first half, and a rolling last half; what is cut from the
// middle is replaced by one marker line. When a caller writer is given, the
// head streams to it as it comes and the marker and tail follow at the end.
type capture struct {
	mu      sync.Mutex
	limit   int64
	stream  io.Writer // optional
	keep    bool      // keep the text for the result
	head    []byte
	tail    []byte // ring buffer once truncated
	tailPos int
	total   int64
	closed  bool
	onHard  func()

	headCount int64 // bytes that went to the head, kept or streamed
	result    string
}

func newCapture(limit int64, stream io.Writer, keep bool, onHard func()) *capture {
	return &capture{limit: limit, stream: stream, keep: keep, onHard: onHard}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return len(p), nil
	}
	n := len(p)
	c.total += int64(n)
	if c.limit <= 0 {
		c.appendHead(p)
		return n, nil
	}
	headMax := c.limit - c.limit/2
	if room := headMax - c.headCount; room > 0 {
		k := min(int64(len(p)), room)
		c.appendHead(p[:k])
		p = p[k:]
	}
	if len(p) > 0 {
		c.appendTail(p)
	}
	if c.total > c.limit*outputHardFactor && c.onHard != nil {
		hard := c.onHard
		c.onHard = nil
		go hard()
	}
	return n, nil
}

func (c *capture) appendHead(p []byte) {
	c.headCount += int64(len(p))
	if c.keep {
		c.head = append(c.head, p...)
	}
	if c.stream != nil {
		c.stream.Write(p)
	}
}

func (c *capture) appendTail(p []byte) {
	tailMax := int(c.limit / 2)
	if tailMax == 0 {
		return
	}
	if c.tail == nil {
		c.tail = make([]byte, 0, tailMax)
	}
	for len(p) > 0 {
		if len(c.tail) < tailMax {
			k := min(len(p), tailMax-len(c.tail))
			c.tail = append(c.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(c.tail[c.tailPos:], p)
		c.tailPos = (c.tailPos + k) % tailMax
		p = p[k:]
	}
}

// finish closes the stream and returns the kept text and whether anything
// was cut.
func (c *capture) finish() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return c.result, c.truncated()
	}
	c.closed = true
	tail := append(append([]byte(nil), c.tail[c.tailPos:]...), c.tail[:c.tailPos]...)
	omitted := c.total - c.headCount - int64(len(tail))
	var rest []byte
	if omitted > 0 {
		marker := fmt.Sprintf("\n[bashbox: output truncated: %d bytes omitted]\n", omitted)
		rest = append([]byte(marker), tail...)
	} else {
		rest = tail
	}
	if c.stream != nil {
		c.stream.Write(rest)
	}
	if c.keep {
		c.result = string(c.head) + string(rest)
	}
	return c.result, c.truncated()
}

func (c *capture) truncated() bool {
	return c.limit > 0 && c.total > c.limit
}
