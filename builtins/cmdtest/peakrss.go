package cmdtest

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// WaitPeakRSS waits for a started command and returns its own peak
// resident set, sampled from /proc every millisecond while it runs, with
// Wait's error. The rusage of a child started with vfork would also count
// the test process's memory at the exec, so it is not used.
func WaitPeakRSS(cmd *exec.Cmd) (int64, error) {
	var rss int64
	done, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			rss = max(rss, PeakRSS(cmd.Process.Pid))
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	<-sampled
	return rss, err
}

// PeakRSS is a live process's peak resident set (VmHWM), 0 once it is
// gone.
func PeakRSS(pid int) int64 {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// RunPeak runs cmd and returns its exit status, its own peak resident set
// (see WaitPeakRSS) and how long it took from its start. A command that
// cannot start, or ends other than by exiting, fails t.
func RunPeak(t testing.TB, cmd *exec.Cmd) (code int, rss int64, took time.Duration) {
	t.Helper()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rss, err := WaitPeakRSS(cmd)
	took = time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, rss, took
}
