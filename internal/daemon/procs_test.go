//go:build unix

package daemon

import (
	"runtime"
	"testing"
	"time"
)

// The daemon runs with one processor while it serves one short run, with
// all of them once a second run comes or a run lasts, and narrows again
// when idle; stop gives the process its processors back.
func TestProcsFollowTheRuns(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(before)
	p := newProcs(4)
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Fatalf("idle daemon: GOMAXPROCS %d, want 1", n)
	}
	end1 := p.start()
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Fatalf("one fresh run: GOMAXPROCS %d, want 1", n)
	}
	end2 := p.start()
	if n := runtime.GOMAXPROCS(0); n != 4 {
		t.Fatalf("two runs: GOMAXPROCS %d, want 4", n)
	}
	end1()
	end2()
	waitProcs(t, 1, 3*time.Second)

	end := p.start()
	waitProcs(t, 4, 2*time.Second) // a run past widenAfter
	end()
	waitProcs(t, 1, 3*time.Second)

	p.stop()
	if n := runtime.GOMAXPROCS(0); n != 4 {
		t.Fatalf("after stop: GOMAXPROCS %d, want 4", n)
	}
	p.start()() // a stopped governor changes nothing
	if n := runtime.GOMAXPROCS(0); n != 4 {
		t.Fatalf("a run after stop: GOMAXPROCS %d, want 4", n)
	}
	newProcs(0).start()()
	if runtime.GOMAXPROCS(0) != 4 {
		t.Fatal("Procs 0 changed GOMAXPROCS")
	}
}

func waitProcs(t *testing.T, want int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for runtime.GOMAXPROCS(0) != want {
		if time.Now().After(deadline) {
			t.Fatalf("GOMAXPROCS %d after %v, want %d", runtime.GOMAXPROCS(0), within, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
