package interp_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
)

// processCPU is the CPU time the test process has used (user and system,
// all threads, the garbage collector's included): on a shared machine it
// is a steadier measure than wall time.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLoopIteration is the engine's cost per loop iteration of the
// exp10 loop_heavy body ([ ] test, arithmetic assignments, a quoted
// concatenation, a # pattern removal): allocs/op divided by 10,000 is
// what one iteration allocates, and cpu-ns/iter is the process's CPU
// time per iteration.
func BenchmarkLoopIteration(b *testing.B) {
	box := nativeBox(b, bashbox.Limits{}, nil)
	const iterations = 10000
	const script = `i=0; s=0; while [ $i -lt 10000 ]; do s=$(( (s + i * 7) % 1000003 )); x="item$i"; x=${x#item}; i=$((i + 1)); done; echo "$s $x"`
	b.ReportAllocs()
	start := processCPU(b)
	for b.Loop() {
		if res := runNative(b, box, script); res.Stdout != "963953 9999\n" {
			b.Fatalf("got %q %q", res.Stdout, res.Stderr)
		}
	}
	b.ReportMetric(float64(processCPU(b)-start)/float64(b.N*iterations), "cpu-ns/iter")
}
