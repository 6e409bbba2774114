package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// errDraining refuses work once the server is stopping: another replica
// (or this one, restarted) takes it. It is a 503 with Retry-After.
var errDraining = errors.New("the server is shutting down; retry (another replica will take the run)")

// drainer counts the work in flight (runs and session file transfers) so
// that a stopping server can let it finish. Once draining, new work is
// refused; work past the drain timeout is cancelled through its context.
type drainer struct {
	mu       sync.Mutex
	active   int
	draining bool
	idle     chan struct{} // closed when active reaches 0 while draining

	hard   context.Context // cancelled when the drain timeout passes
	cancel context.CancelFunc
}

func newDrainer() *drainer {
	d := &drainer{idle: make(chan struct{})}
	d.hard, d.cancel = context.WithCancel(context.Background())
	return d
}

// enter admits one piece of work; leave must be called when it ends. The
// returned context is ctx, cancelled also when the drain timeout passes.
func (d *drainer) enter(ctx context.Context) (context.Context, func(), error) {
	d.mu.Lock()
	if d.draining {
		d.mu.Unlock()
		return nil, nil, errDraining
	}
	d.active++
	d.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(d.hard, cancel)
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			stop()
			cancel()
			d.mu.Lock()
			d.active--
			if d.active == 0 && d.draining {
				close(d.idle)
			}
			d.mu.Unlock()
		})
	}, nil
}

func (d *drainer) isDraining() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.draining
}

// Drain turns the server not-ready, refuses new runs (503 with
// Retry-After) and waits for the runs and file transfers in flight to
// end. When ctx ends first (the drain timeout), the rest are cancelled;
// Drain then waits for them to return and reports how many were cut.
// Sessions are saved by the calls themselves before they count as ended,
// so a drained server has no session work half done.
func (s *Server) Drain(ctx context.Context) error {
	d := s.drain
	d.mu.Lock()
	if !d.draining {
		d.draining = true
		if d.active == 0 {
			close(d.idle)
		}
	}
	active := d.active
	d.mu.Unlock()
	s.log.Info("bashbox draining", "in_flight", active)
	select {
	case <-d.idle:
		s.log.Info("bashbox drained", "cut", 0)
		return nil
	case <-ctx.Done():
	}
	d.mu.Lock()
	cut := d.active
	d.mu.Unlock()
	d.cancel()
	<-d.idle // cancelled calls end within moments
	s.log.Warn("bashbox drained", "cut", cut)
	return fmt.Errorf("drain timeout: %d runs in flight were cut", cut)
}

// readyHandler is /readyz: 200 while the server takes runs, 503 once it
// drains (so the load balancer stops sending it any), and 503 while the
// session store is unreachable.
func (s *Server) readyHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if s.drain.isDraining() {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "draining\n")
			return
		}
		if err := s.storeReady(r.Context()); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "session store: "+err.Error()+"\n")
			return
		}
		io.WriteString(w, "ready\n")
	})
}
