package bench

import (
	"context"
	"runtime"
	"testing"
)

// The peak RSS of an op is its own process tree's: a bench process that
// grew large (600 MiB here, 960 MiB in a full bench after the in-process
// ops) does not show through, which it did when the figure was the wait4
// rusage of a child started directly. And what a child of the op holds
// does count.
func TestPeakRSSIsTheOpsOwn(t *testing.T) {
	ballast := make([]byte, 600<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	env := []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
	kib, err := peakRSS(context.Background(), t.TempDir(), env, "/bin/sh", "-c", "true")
	if err != nil {
		t.Fatal(err)
	}
	if kib <= 0 || kib > 64<<10 {
		t.Errorf("peak RSS of sh -c true: %d KiB, want (0, 64 MiB]: the bench's own 600 MiB leaks in", kib)
	}
	// A 30 MB string held by a shell the op's shell waits for.
	kib, err = peakRSS(context.Background(), t.TempDir(), env, "/bin/sh", "-c",
		`sh -c 'x=$(head -c 30000000 /dev/zero | tr "\0" a); echo ${#x}'`)
	if err != nil {
		t.Fatal(err)
	}
	if kib < 28<<10 || kib > 300<<10 {
		t.Errorf("peak RSS of a tree holding 30 MB: %d KiB, want 28-300 MiB", kib)
	}
	// A failing command is an error, not a figure.
	if _, err := peakRSS(context.Background(), t.TempDir(), env, "/bin/sh", "-c", "exit 3"); err == nil {
		t.Error("exit 3 measured without an error")
	}
	runtime.KeepAlive(ballast)
}
