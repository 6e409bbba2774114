// Package pacing shares the processor between the calls of one process so
// that long-running calls cannot slow down short ones: a call that has run
// longer than a grace period, or passed more checkpoints than an ordinary
// call does (a measure of work that does not depend on how loaded the
// machine is), is "long"; so is, from its start, every call of a tenant
// that had a long call in the last Memory (a flood of short CPU-heavy
// calls is one long stream of work). While any short call is in
// flight, long calls run one at a time and only for a small slice of each
// period, parking their goroutines (not runnable, so not competing for a
// core or the Go scheduler's run queues) in between. Once no short call
// has been in flight for a moment (DefaultLinger), long calls run at full
// speed.
//
// Go cannot preempt or deprioritise a goroutine from outside, so pacing is
// cooperative: a call's work calls Ticket.Pace at its checkpoints (every
// shell statement, loop iteration, command dispatch, memory charge and
// pipe or output write), which are never more than a few milliseconds of
// work apart.
package pacing

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Scheduler paces the calls of one process. The zero value is not usable;
// use New.
type Scheduler struct {
	work   int64 // checkpoints a short call may pass
	grace  time.Duration
	slice  time.Duration
	period time.Duration

	linger     time.Duration
	sliceBytes int64 // bytes a long call may take on per slice; 0: no bound

	short atomic.Int64 // calls in flight still within their grace period
	// paced is set while a short call is in flight or one ended less than
	// linger ago: long calls take turns only then.
	paced atomic.Bool

	mu       sync.Mutex
	lastLong map[string]time.Time // per tenant: when a call of it last became long
	idle     chan struct{}        // closed while !paced
	quiet    uint64               // counts short calls' comings and goings
	turn     *Ticket              // the long call whose slice is running
	till     time.Time            // when turn's slice ends
}

// Defaults: the grace period is longer than an ordinary call (a search, a
// jq filter, a sed edit take milliseconds to tens of milliseconds); a long
// call keeps a tenth of a core while short calls are in flight, so that it
// still ends on its own budgets.
const (
	DefaultWork   = 200
	DefaultGrace  = 500 * time.Millisecond
	DefaultSlice  = 2 * time.Millisecond
	DefaultPeriod = 20 * time.Millisecond
	// SliceBytes bounds what a long call takes on per slice while short
	// calls are in flight: 50 MiB/s at the default period.
	SliceBytes = 1 << 20
	// DefaultLinger keeps long calls paced for a while after the last
	// short call ended: an agent's calls come one after another, and in
	// the gap between two (the answer's way back, the next request's way
	// in, which count in the agent's latency too) a long call at full
	// speed would hold the processor the next short call needs.
	DefaultLinger = 100 * time.Millisecond
	// Memory is how long a tenant's long call makes its new calls long.
	Memory = 10 * time.Second
)

// New returns a scheduler with the default grace period, slice and period.
func New() *Scheduler {
	s := NewWith(DefaultGrace, DefaultSlice, DefaultPeriod)
	s.work = DefaultWork
	s.linger = DefaultLinger
	s.sliceBytes = SliceBytes
	return s
}

// NewWith returns a scheduler whose long calls run for slice out of each
// period while a call younger than grace is in flight.
func NewWith(grace, slice, period time.Duration) *Scheduler {
	idle := make(chan struct{})
	close(idle)
	return &Scheduler{grace: grace, slice: slice, period: max(period, slice), idle: idle, lastLong: map[string]time.Time{}}
}

// Ticket is one call's place in the scheduler.
type Ticket struct {
	s      *Scheduler
	tenant string
	long   atomic.Bool
	ticks  atomic.Int64 // checkpoints passed while short
	timer  *time.Timer
	rest   time.Time    // no turn before then (guarded by s.mu)
	bytes  atomic.Int64 // taken on in this slice
}

// Begin enters a call of tenant, short until its grace period ends or it
// passed its work's worth of checkpoints, unless the tenant had a long
// call lately. End must be called when the call has ended.
func (s *Scheduler) Begin(tenant string) *Ticket {
	t := &Ticket{s: s, tenant: tenant}
	s.mu.Lock()
	last, ok := s.lastLong[tenant]
	s.mu.Unlock()
	if ok && time.Since(last) < Memory {
		t.long.Store(true)
		t.timer = time.NewTimer(time.Hour) // stopped by End
		return t
	}
	s.enterShort()
	t.timer = time.AfterFunc(s.grace, t.becomeLong)
	return t
}

// End leaves the scheduler.
func (t *Ticket) End() {
	t.timer.Stop()
	if t.long.CompareAndSwap(false, true) {
		t.s.leaveShort() // ended short: not a long call
	}
	s := t.s
	s.mu.Lock()
	if s.turn == t {
		s.turn = nil
	}
	s.mu.Unlock()
}

func (t *Ticket) becomeLong() {
	if t.long.CompareAndSwap(false, true) {
		t.s.mu.Lock()
		t.s.lastLong[t.tenant] = time.Now()
		t.s.mu.Unlock()
		t.s.leaveShort()
	}
}

// Yield is a checkpoint that does not count as work (a command checking
// whether its call was cancelled): it parks like Pace, but never makes
// the call long.
func (t *Ticket) Yield(ctx context.Context) {
	if t != nil && t.long.Load() {
		t.wait(ctx)
	}
}

func (s *Scheduler) enterShort() {
	if s.short.Add(1) == 1 {
		s.mu.Lock()
		if s.short.Load() > 0 {
			s.quiet++ // a pending linger timer no longer frees the long calls
			s.paced.Store(true)
			select {
			case <-s.idle:
				s.idle = make(chan struct{})
			default:
			}
		}
		s.mu.Unlock()
	}
}

func (s *Scheduler) leaveShort() {
	if s.short.Add(-1) == 0 {
		s.mu.Lock()
		s.quiet++
		q := s.quiet
		s.mu.Unlock()
		if s.linger <= 0 {
			s.release(q)
			return
		}
		time.AfterFunc(s.linger, func() { s.release(q) })
	}
}

// release lets long calls run at full speed, unless a short call came in
// since the last one left (quiet moved on).
func (s *Scheduler) release(q uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.quiet != q || s.short.Load() != 0 {
		return
	}
	s.paced.Store(false)
	select {
	case <-s.idle:
	default:
		close(s.idle)
	}
}

// Long reports whether the call has outlived its grace period.
func (t *Ticket) Long() bool { return t.long.Load() }

// Pace is a checkpoint of the call's work. A short call, or a long call
// while no short call is in flight, returns at once. Otherwise the call
// runs only in its turn: when another long call has the turn or its own
// slice is over, Pace parks until the turn is free again after a pause,
// until no short call is in flight, or until ctx is done.
func (t *Ticket) Pace(ctx context.Context) {
	if t == nil {
		return
	}
	if !t.long.Load() {
		if w := t.s.work; w <= 0 || t.ticks.Add(1) <= w {
			return
		}
		t.becomeLong()
	}
	t.wait(ctx)
}

// PaceBytes is the checkpoint of a call about to hold n more bytes: it
// counts as one checkpoint and one more for each 256 KiB (a call that
// allocates briskly is as long as one that loops briskly). While short
// calls are in flight, a long call may take on SliceBytes per slice:
// more ends its slice and lengthens its rest in proportion, so that a
// memory flood's allocations, and the garbage collections they bring on,
// which stop every call, slow down with it.
func (t *Ticket) PaceBytes(ctx context.Context, n int64) {
	if t == nil {
		return
	}
	if !t.long.Load() {
		if w := t.s.work; w <= 0 || t.ticks.Add(1+max(n, 0)>>18) <= w {
			return
		}
		t.becomeLong()
	}
	if n > 0 && t.s.paced.Load() {
		t.bytes.Add(n)
	}
	t.wait(ctx)
}

// wait parks a long call until its turn (see Pace).
func (t *Ticket) wait(ctx context.Context) {
	s := t.s
	for s.paced.Load() && ctx.Err() == nil {
		now := time.Now()
		s.mu.Lock()
		if s.turn == t {
			b := t.bytes.Load()
			if now.Before(s.till) && b <= s.sliceBytes {
				s.mu.Unlock()
				return
			}
			// Our slice is over: rest for the rest of the period (and a
			// period more for each SliceBytes taken on past the first),
			// so that a long call never holds a core for more than slice
			// out of period while short calls are in flight.
			rest := s.period - s.slice
			if s.sliceBytes > 0 && b > s.sliceBytes {
				rest += time.Duration(float64(s.period) * float64(b-s.sliceBytes) / float64(s.sliceBytes))
			}
			t.bytes.Add(-b)
			s.turn, t.rest = nil, now.Add(rest)
		}
		if (s.turn == nil || !now.Before(s.till)) && !now.Before(t.rest) {
			s.turn, s.till = t, now.Add(s.slice)
			s.mu.Unlock()
			return
		}
		wait := max(s.period-s.slice, time.Millisecond)
		if t.rest.After(now) {
			wait = t.rest.Sub(now)
		}
		idle := s.idle
		s.mu.Unlock()
		timer := time.NewTimer(wait)
		select {
		case <-idle:
		case <-timer.C:
		case <-ctx.Done():
		}
		timer.Stop()
	}
}
