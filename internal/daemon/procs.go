//go:build unix

package daemon

import (
	"runtime"
	"sync"
	"time"
)

// A launcher's run is usually short (a `bashbox run` of a few commands,
// well under a millisecond of work), and on such a run the Go scheduler's
// own work costs more than the run: each wake-up of the daemon readies a
// goroutine, which wakes a second OS thread to look for more work on the
// idle processor, which finds none and sleeps again. With one processor
// there is no second thread to wake: measured on a 2-CPU VM, the daemon
// spent 500-570 us of CPU per `run -c true` with GOMAXPROCS=1 against
// 730-830 us with 2. Longer or concurrent runs want every processor
// (grep -r and find search with several goroutines), so procs widens
// GOMAXPROCS as soon as a second run is in flight or a run has lasted
// widenAfter, and narrows it again once no run has been in flight for
// narrowAfter. runtime.GOMAXPROCS stops the world, which is why it
// changes only on these edges and not per run.
const (
	widenAfter  = 2 * time.Millisecond
	narrowAfter = time.Second
)

type procs struct {
	mu       sync.Mutex
	wide     int // 0: leave GOMAXPROCS alone
	cur      int
	inflight int
	narrow   *time.Timer
	stopped  bool
}

func newProcs(wide int) *procs {
	p := &procs{wide: wide}
	if wide > 1 {
		p.set(1)
	}
	return p
}

// set changes GOMAXPROCS; p.mu is held (or p is not shared yet).
func (p *procs) set(n int) {
	if p.cur != n && !p.stopped {
		runtime.GOMAXPROCS(n)
		p.cur = n
	}
}

// start counts a run in flight and returns what ends it.
func (p *procs) start() (end func()) {
	if p.wide <= 1 {
		return func() {}
	}
	p.mu.Lock()
	p.inflight++
	if p.narrow != nil {
		p.narrow.Stop()
		p.narrow = nil
	}
	if p.inflight > 1 {
		p.set(p.wide)
	}
	p.mu.Unlock()
	widen := time.AfterFunc(widenAfter, func() {
		p.mu.Lock()
		// The run may have ended as this fired (Stop came too late):
		// widening then would leave no narrowing timer behind.
		if p.inflight > 0 {
			p.set(p.wide)
		}
		p.mu.Unlock()
	})
	return func() {
		widen.Stop()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.inflight--
		if p.inflight == 0 && p.cur != 1 && !p.stopped {
			p.narrow = time.AfterFunc(narrowAfter, func() {
				p.mu.Lock()
				if p.inflight == 0 {
					p.set(1)
				}
				p.mu.Unlock()
			})
		}
	}
}

// stop gives the process its processors back and ends the timers.
func (p *procs) stop() {
	if p.wide <= 1 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.narrow != nil {
		p.narrow.Stop()
	}
	p.set(p.wide)
	p.stopped = true
}
