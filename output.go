package bashbox

import (
	"bytes"
	"fmt"
	"io"
	"sync"
)

// outputHardFactor: past this many times its budget, output stops the
// script (budget "output") instead of only being truncated.
const outputHardFactor = 8

// capture collects one output stream within its budget. Up to limit bytes
// are kept: the first half, and a rolling last half; what is cut from the
// middle is replaced by one marker line. Cuts fall on line boundaries
// where the text has lines, so the marker never splits a line: the head
// ends after its last complete line and the tail starts at its first. When
// a caller writer is given, the head streams to it as it comes and the
// marker and tail follow at the end.
type capture struct {
	mu       sync.Mutex
	limit    int64
	stream   io.Writer // optional
	keep     bool      // keep the text for the result
	head     []byte
	tail     []byte // ring buffer once truncated
	tailPos  int
	total    int64
	closed   bool
	onHard   func()
	pace     func() // a checkpoint of the call (interp.Budget.Pace), or nil
	headDone bool   // the head is full: everything further goes to the tail
	headEOL  bool   // the head so far ends at a line boundary (or is empty)

	headCount int64 // bytes that went to the head, kept or streamed
	result    string
}

// lineSlack is how far past its half of the budget the head may grow to
// finish a line it started, rather than cut it (at most a quarter of the
// budget).
const lineSlack = 4096

func newCapture(limit int64, stream io.Writer, keep bool, onHard func()) *capture {
	return &capture{limit: limit, stream: stream, keep: keep, onHard: onHard, headEOL: true}
}

func (c *capture) Write(p []byte) (int, error) {
	if c.pace != nil {
		c.pace() // a checkpoint of the call, before taking the lock
	}
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
	if !c.headDone {
		p = c.writeHead(p)
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

// writeHead gives the head what of p belongs to it and returns the rest,
// for the tail. The head ends after the last line end within its half of
// the budget; when it is inside a line there (or has no line yet), it
// takes that line to its end if the end is within lineSlack; only a line
// longer than that is cut.
func (c *capture) writeHead(p []byte) []byte {
	headMax := c.limit - c.limit/2
	room := headMax - c.headCount
	if int64(len(p)) <= room {
		c.appendHead(p)
		return nil
	}
	if room > 0 {
		if i := bytes.LastIndexByte(p[:room], '\n'); i >= 0 {
			c.appendHead(p[:i+1])
			c.headDone = true
			return p[i+1:]
		}
	}
	if c.headEOL && c.headCount > 0 {
		c.headDone = true // the head ends with a whole line: stop there
		return p
	}
	hardRoom := max(headMax+min(lineSlack, c.limit/4)-c.headCount, 0)
	if i := bytes.IndexByte(p[:min(int64(len(p)), hardRoom)], '\n'); i >= 0 {
		c.appendHead(p[:i+1])
		c.headDone = true
		return p[i+1:]
	}
	if int64(len(p)) <= hardRoom {
		c.appendHead(p) // still inside the line, still near its end maybe
		return nil
	}
	c.appendHead(p[:hardRoom]) // a line too long to keep whole
	c.headDone = true
	return p[hardRoom:]
}

func (c *capture) appendHead(p []byte) {
	if len(p) == 0 {
		return
	}
	c.headCount += int64(len(p))
	c.headEOL = p[len(p)-1] == '\n'
	if c.keep {
		c.head = append(c.head, p...)
	}
	if c.stream != nil {
		c.stream.Write(p)
	}
}

func (c *capture) appendTail(p []byte) {
	// The tail has what the head left of the budget, so output within the
	// budget is kept whole wherever the head ended.
	tailMax := int(max(c.limit-c.headCount, 0))
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
	if omitted > 0 {
		// The ring cut the tail's first line: start at the next whole one,
		// unless the tail is one unfinished line.
		if i := bytes.IndexByte(tail, '\n'); i >= 0 && i < len(tail)-1 {
			tail = tail[i+1:]
			omitted = c.total - c.headCount - int64(len(tail))
		}
	}
	var rest []byte
	if omitted > 0 {
		marker := fmt.Sprintf("[bashbox: output truncated: %d bytes omitted]\n", omitted)
		if !c.headEOL {
			marker = "\n" + marker
		}
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
