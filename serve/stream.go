package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"
)

// maxChunk bounds one streamed output event.
const maxChunk = 16 << 10

// streamWriteTimeout is how long one event may wait for a client that
// stops reading; past it the stream is dropped and the run goes on to its
// end without it.
const streamWriteTimeout = 10 * time.Second

// keepaliveEvery keeps proxies from closing a silent stream.
const keepaliveEvery = 15 * time.Second

// outputSink receives a run's output as the script writes it: stream is
// "stdout" or "stderr". Output past the head of the output budget comes
// at the end, after the truncation marker, as in the result.
type outputSink func(stream string, p []byte)

type sinkWriter struct {
	sink   outputSink
	stream string
}

func (w sinkWriter) Write(p []byte) (int, error) {
	w.sink(w.stream, p)
	return len(p), nil
}

// chunker turns the script's writes into output events: at most maxChunk
// bytes each, in the order written across both streams, never splitting a
// UTF-8 character. Commands write a line in pieces (echo writes each word),
// so output is sent a line at a time; a partial line (a prompt, a progress
// dot) goes out after lingerPartial.
type chunker struct {
	mu      sync.Mutex
	stream  string // of pending
	pending []byte
	timer   *time.Timer
	closed  bool
	emit    func(stream string, data []byte)
}

// lingerPartial is how long a partial line waits for its end.
const lingerPartial = 20 * time.Millisecond

func newChunker(emit func(stream string, data []byte)) *chunker {
	return &chunker{emit: emit}
}

func (c *chunker) write(stream string, p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if stream != c.stream && len(c.pending) > 0 {
		c.send(len(c.pending))
	}
	c.stream = stream
	c.pending = append(c.pending, p...)
	if i := bytes.LastIndexByte(c.pending, '\n'); i >= 0 {
		c.send(i + 1)
	}
	for len(c.pending) >= maxChunk {
		c.send(maxChunk)
	}
	if len(c.pending) > 0 && c.timer == nil {
		c.timer = time.AfterFunc(lingerPartial, c.linger)
	}
}

func (c *chunker) linger() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timer = nil
	if !c.closed {
		c.send(len(c.pending) - incompleteTail(c.pending))
	}
}

// send emits the first n pending bytes, in chunks that end on character
// boundaries.
func (c *chunker) send(n int) {
	out := c.pending[:n]
	for len(out) > 0 {
		k := min(maxChunk, len(out))
		if k < len(out) {
			j := k
			for j > k-utf8.UTFMax && j > 0 && !utf8.RuneStart(out[j]) {
				j--
			}
			if j > 0 && utf8.RuneStart(out[j]) {
				k = j
			}
		}
		c.emit(c.stream, out[:k])
		out = out[k:]
	}
	c.pending = append(c.pending[:0], c.pending[n:]...)
}

// flush sends what is pending and stops the chunker.
func (c *chunker) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	c.send(len(c.pending))
	c.closed = true
}

// incompleteTail is the length of a UTF-8 sequence cut short at the end
// of b (0 when b ends on a whole character or on invalid bytes).
func incompleteTail(b []byte) int {
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		c := b[len(b)-i]
		if !utf8.RuneStart(c) {
			continue
		}
		if c >= 0xC0 && !utf8.FullRune(b[len(b)-i:]) {
			return i
		}
		return 0
	}
	return 0
}

// outputEvent is a chunk of output: text, or base64 when the chunk is not
// valid UTF-8.
type outputEvent struct {
	Data     string `json:"data"`
	Encoding string `json:"encoding,omitempty"`
}

func newOutputEvent(p []byte) outputEvent {
	if utf8.Valid(p) {
		return outputEvent{Data: string(p)}
	}
	return outputEvent{Data: base64.StdEncoding.EncodeToString(p), Encoding: "base64"}
}

// sseWriter writes server-sent events; the response starts with the first
// event, so that refusals before it keep their status.
type sseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	mu      sync.Mutex
	started bool
	err     error
}

func (s *sseWriter) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.startLocked()
}

func (s *sseWriter) startLocked() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	s.w.WriteHeader(http.StatusOK)
	s.err = s.rc.Flush()
}

func (s *sseWriter) raw(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.startLocked()
	if s.err != nil {
		return
	}
	s.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	if _, s.err = fmt.Fprint(s.w, text); s.err == nil {
		s.err = s.rc.Flush()
	}
}

func (s *sseWriter) event(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(apiError{Error: err.Error()})
		name = "error"
	}
	s.raw("event: " + name + "\ndata: " + string(b) + "\n\n")
}

// streamRun answers POST /v1/run with Accept: text/event-stream: stdout and
// stderr events as the script writes them, then one result event (or an
// error event). The run ends when the client goes away.
func (s *Server) streamRun(w http.ResponseWriter, r *http.Request, req RunRequest) {
	sse := &sseWriter{w: w, rc: http.NewResponseController(w)}
	ch := newChunker(func(stream string, data []byte) { sse.event(stream, newOutputEvent(data)) })
	req.sink = ch.write
	req.started = sse.start
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(keepaliveEvery)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				sse.mu.Lock()
				started := sse.started
				sse.mu.Unlock()
				if started {
					sse.raw(": keepalive\n\n")
				}
			}
		}
	}()
	res, err := s.Run(r.Context(), req)
	close(stop)
	wg.Wait()
	ch.flush()
	defer sse.rc.SetWriteDeadline(time.Time{})
	switch {
	case r.Context().Err() != nil:
		return
	case err != nil && !sse.started:
		s.fail(w, r, err)
	case err != nil:
		body := apiError{Error: err.Error()}
		if ie, ok := err.(*inputError); ok {
			body.Field = ie.Field
		}
		sse.event("error", body)
	default:
		sse.event("result", res)
	}
}
