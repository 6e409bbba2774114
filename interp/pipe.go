package interp

import (
	"errors"
	"io"
	"sync"
)

// A pipe of the call: like io.Pipe (each write waits until readers took
// all of it), with one addition the read builtin needs: a read can be
// interrupted (read -t) without closing the pipe, so a timed-out read
// leaves no goroutine behind and the unread input in the pipe.
type pipe struct {
	wrMu sync.Mutex // one write at a time
	wrCh chan []byte
	rdCh chan int

	once sync.Once
	done chan struct{}

	mu        sync.Mutex
	rerr      error           // why the read end was closed
	werr      error           // why the write end was closed
	interrupt <-chan struct{} // ends a waiting read (read -t)
}

// errInterrupted is what an interrupted read returns.
var errInterrupted = errors.New("read interrupted")

func newPipe() (*pipeReader, *pipeWriter) {
	p := &pipe{wrCh: make(chan []byte), rdCh: make(chan int), done: make(chan struct{})}
	return &pipeReader{p}, &pipeWriter{p}
}

func (p *pipe) read(b []byte) (int, error) {
	p.mu.Lock()
	stop := p.interrupt
	p.mu.Unlock()
	select {
	case <-p.done:
		return 0, p.readErr()
	default:
	}
	select {
	case bw := <-p.wrCh:
		n := copy(b, bw)
		p.rdCh <- n
		return n, nil
	case <-p.done:
		return 0, p.readErr()
	case <-stop:
		return 0, errInterrupted
	}
}

func (p *pipe) write(b []byte) (n int, err error) {
	select {
	case <-p.done:
		return 0, p.writeErr()
	default:
	}
	p.wrMu.Lock()
	defer p.wrMu.Unlock()
	for first := true; first || len(b) > 0; first = false {
		select {
		case p.wrCh <- b:
			nw := <-p.rdCh
			b = b[nw:]
			n += nw
		case <-p.done:
			return n, p.writeErr()
		}
	}
	return n, nil
}

// closeEnd records why one end closed (the first reason of each end
// wins) and wakes everything waiting on the pipe.
func (p *pipe) closeEnd(reader bool, err error) {
	p.mu.Lock()
	if reader {
		if p.rerr == nil {
			if err == nil {
				err = io.ErrClosedPipe
			}
			p.rerr = err
		}
	} else if p.werr == nil {
		if err == nil {
			err = io.EOF
		}
		p.werr = err
	}
	p.mu.Unlock()
	p.once.Do(func() { close(p.done) })
}

// readErr: a reader sees the writer's reason, or ErrClosedPipe after
// closing its own end.
func (p *pipe) readErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.werr != nil {
		return p.werr
	}
	return io.ErrClosedPipe
}

// writeErr: a writer sees the reader's reason, or ErrClosedPipe after
// closing its own end.
func (p *pipe) writeErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rerr != nil {
		return p.rerr
	}
	return io.ErrClosedPipe
}

type pipeReader struct{ p *pipe }

func (r *pipeReader) Read(b []byte) (int, error)     { return r.p.read(b) }
func (r *pipeReader) Close() error                   { return r.CloseWithError(nil) }
func (r *pipeReader) CloseWithError(err error) error { r.p.closeEnd(true, err); return nil }

// setInterrupt makes reads return errInterrupted once stop is closed
// (nil: reads wait as long as the pipe is open).
func (r *pipeReader) setInterrupt(stop <-chan struct{}) {
	r.p.mu.Lock()
	r.p.interrupt = stop
	r.p.mu.Unlock()
}

type pipeWriter struct{ p *pipe }

func (w *pipeWriter) Write(b []byte) (int, error)    { return w.p.write(b) }
func (w *pipeWriter) Close() error                   { return w.CloseWithError(nil) }
func (w *pipeWriter) CloseWithError(err error) error { w.p.closeEnd(false, err); return nil }
