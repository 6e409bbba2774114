package pacing

import (
	"context"
	"testing"
	"time"
)

// paceAsync runs t.Pace(ctx) in a goroutine and reports when it returns.
func paceAsync(t *Ticket, ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		t.Pace(ctx)
		close(done)
	}()
	return done
}

func returns(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatalf("%s: Pace did not return", what)
	}
}

func blocks(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
		t.Fatalf("%s: Pace returned", what)
	case <-time.After(50 * time.Millisecond):
	}
}

// TM-SRV-014: a call past its grace period, once its slice is spent,
// parks while a short call is in flight and resumes when none is; a
// short call and a long call alone never park; a cancelled call stops
// waiting.
func TestLongCallsYieldToShortOnes(t *testing.T) {
	s := NewWith(10*time.Millisecond, time.Millisecond, time.Hour)
	ctx := context.Background()
	young := s.Begin("young")
	returns(t, paceAsync(young, ctx), "a short call")
	young.End()

	long := s.Begin("t")
	defer long.End()
	time.Sleep(30 * time.Millisecond)
	if !long.Long() {
		t.Fatal("a call past its grace period is not long")
	}
	for range 3 {
		returns(t, paceAsync(long, ctx), "a long call alone")
	}

	s.enterShort() // a short call in flight
	returns(t, paceAsync(long, ctx), "a long call taking its slice")
	time.Sleep(5 * time.Millisecond)
	done := paceAsync(long, ctx)
	blocks(t, done, "a long call past its slice beside a short one")
	s.leaveShort()
	returns(t, done, "a long call once no short call is in flight")

	s.enterShort()
	defer s.leaveShort()
	cctx, cancel := context.WithCancel(ctx)
	time.Sleep(5 * time.Millisecond)
	done = paceAsync(long, cctx)
	blocks(t, done, "a long call past its slice beside a short one")
	cancel()
	returns(t, done, "a cancelled long call")
}

// Beside short calls, long calls take the turn one at a time.
func TestOneLongCallAtATime(t *testing.T) {
	s := NewWith(time.Millisecond, time.Hour, time.Hour)
	a, b := s.Begin("t"), s.Begin("t")
	defer b.End()
	time.Sleep(10 * time.Millisecond)
	s.enterShort()
	defer s.leaveShort()
	ctx := context.Background()
	returns(t, paceAsync(a, ctx), "the first long call")
	done := paceAsync(b, ctx)
	blocks(t, done, "a second long call while the first has the turn")
	a.End()
	returns(t, done, "the second long call once the first ended")
}

// A tenant whose call became long starts its next calls long; another
// tenant's start short. Yield parks a long call but never makes a short
// one long.
func TestTenantMemory(t *testing.T) {
	s := NewWith(time.Hour, time.Millisecond, time.Hour)
	s.work = 3
	a := s.Begin("flood")
	for range 3 {
		a.Yield(context.Background())
	}
	if a.Long() {
		t.Fatal("Yield counted as work")
	}
	for range 4 {
		a.Pace(context.Background())
	}
	if !a.Long() {
		t.Fatal("a call past its work is not long")
	}
	a.End()
	if b := s.Begin("flood"); !b.Long() {
		t.Error("a new call of a tenant with a recent long call starts short")
	} else {
		b.End()
	}
	c := s.Begin("other")
	defer c.End()
	if c.Long() {
		t.Error("another tenant's call starts long")
	}
}

// TM-SRV-017: long calls stay paced for a while after the last short call
// ended (the gap between an agent's calls), and run freely after that; a
// short call coming in within the while keeps them paced.
func TestLingerAfterShortCalls(t *testing.T) {
	s := NewWith(time.Millisecond, time.Millisecond, time.Hour)
	s.linger = 200 * time.Millisecond
	long := s.Begin("t")
	defer long.End()
	time.Sleep(10 * time.Millisecond)
	ctx := context.Background()

	s.enterShort()
	returns(t, paceAsync(long, ctx), "a long call taking its slice")
	time.Sleep(5 * time.Millisecond)
	s.leaveShort()
	done := paceAsync(long, ctx)
	blocks(t, done, "a long call just after the last short call left")
	s.enterShort() // the next call of the agent, within the linger
	time.Sleep(250 * time.Millisecond)
	blocks(t, done, "a long call beside a short call that came in within the linger")
	start := time.Now()
	s.leaveShort()
	returns(t, done, "a long call once the linger passed")
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("long call released %v after the last short call, before the linger", d)
	}
}

// TM-SRV-017: beside short calls, a long call taking on memory past
// SliceBytes in its slice rests in proportion; below it, it runs on.
func TestLongCallsTakeOnMemorySlowly(t *testing.T) {
	s := NewWith(time.Millisecond, 20*time.Millisecond, 100*time.Millisecond)
	s.sliceBytes = 1 << 20
	long := s.Begin("t")
	defer long.End()
	time.Sleep(10 * time.Millisecond)
	ctx := context.Background()
	s.enterShort()
	defer s.leaveShort()

	bytesAsync := func(n int64) <-chan struct{} {
		done := make(chan struct{})
		go func() { long.PaceBytes(ctx, n); close(done) }()
		return done
	}
	returns(t, bytesAsync(512<<10), "a long call taking its slice")
	returns(t, bytesAsync(256<<10), "a long call within its slice's bytes")
	start := time.Now()
	done := bytesAsync(3 << 20)
	blocks(t, done, "a long call resting after taking on 3 MiB more")
	returns(t, done, "a long call after its rest")
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("rested %v after 3.75 MiB with 1 MiB a 100 ms period, want some 355 ms", d)
	}
}
