package cmdtest

import (
	"runtime"
	"testing"
	"time"
)

// Settled fails the test unless the process's goroutines are back to
// base within five seconds: a goroutine that has signalled its end (a
// WaitGroup's Done, a closed channel) may still be on its way out, so the
// count is polled rather than read once.
func Settled(t testing.TB, base int, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > base; {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d goroutines, %d before", what, runtime.NumGoroutine(), base)
		}
		time.Sleep(time.Millisecond)
	}
}
