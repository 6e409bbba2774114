package interp_test

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
)

// TestSignalsStayInTheCall: kill reaches the shell, its subshells and
// its jobs only; a killed job ends at once even when blocked, and a job
// never outlives its call.
func TestSignalsStayInTheCall(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{Timeout: 20 * time.Second}, nil)
	for _, c := range []struct{ script, stdout string }{
		{`trap 'echo got' USR1; kill -USR1 $$; echo after`, "got\nafter\n"},
		{`sleep 100 & kill -TERM $!; wait $!; echo $?`, "143\n"},
		{`sleep 100 & kill -9 %1; wait %1; echo $?`, "137\n"},
		{`( trap 'echo sub; exit 3' TERM; kill $BASHPID; echo no ); echo $?`, "sub\n3\n"},
		// pid 1 is the sandbox's parent, outside the call
		{`kill -0 1 2>/dev/null; echo $?`, "1\n"},
		{`trap 'echo t' TERM; { kill $$; } & wait; echo end`, "t\nend\n"},
	} {
		start := time.Now()
		res := runNative(t, b, c.script)
		if res.Stdout != c.stdout {
			t.Errorf("%s:\n got %q (stderr %q)\nwant %q", c.script, res.Stdout, res.Stderr, c.stdout)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", c.script, d)
		}
	}
	// A job left running is stopped with its call.
	before := runtime.NumGoroutine()
	res := runNative(t, b, `sleep 100 & sleep 100 & echo started`)
	if res.Stdout != "started\n" {
		t.Fatalf("got %q", res.Stdout)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		t.Errorf("%d goroutines after the call, %d before", n, before)
	}
}

// TestSignalsConcurrentCalls: calls killing their own jobs at once do not
// reach each other's (pids are per call) and race on nothing.
func TestSignalsConcurrentCalls(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{Timeout: 20 * time.Second}, nil)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := runNative(t, b, `trap 'echo usr1' USR1
for i in 1 2 3; do sleep 100 & done
kill $(jobs -p); wait; kill -USR1 $$; echo done`)
			if res.Stdout != "usr1\ndone\n" {
				t.Errorf("got %q / %q", res.Stdout, res.Stderr)
			}
		}()
	}
	wg.Wait()
}
