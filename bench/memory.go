package bench

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/bashbox/bashbox"
)

// Memory is what calls cost in memory, measured next to the timings.
type Memory struct {
	// Op names the op whose peak RSS was taken through a fresh process.
	Op string `json:"op"`
	// PeakRSSKiB is, per runner, the largest resident set of that process
	// and everything it waited for: the host shell with its GNU tools, or
	// the bashbox CLI (which runs everything inside itself). Nothing of the
	// bench process's own footprint counts (see peakRSS).
	PeakRSSKiB map[string]int64 `json:"peak_rss_kib"`
	// EchoAllocBytes is what one `echo hi` call through the library
	// allocates, over a warm box: the floor every call pays.
	EchoAllocBytes int64 `json:"echo_alloc_bytes"`
}

// MeasureMemory runs op once through host and once through bashbox's CLI
// for their peak RSS, then times the allocations of echo calls in-process.
func MeasureMemory(ctx context.Context, host HostShell, bb *Bashbox, op Op, root string) (*Memory, error) {
	if bb.Exe == "" {
		return nil, fmt.Errorf("measuring memory: no bashbox binary to run")
	}
	m := &Memory{Op: op.Name, PeakRSSKiB: map[string]int64{}}
	// BASHBOX_SOCKET=off: the launcher runs the Go CLI itself, whose
	// footprint this is; through a daemon it would be the launcher's.
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "LANG=C", "BASHBOX_SOCKET=off"}
	for _, r := range []struct {
		name string
		argv []string
	}{
		{host.Name(), []string{host.Path, "-c", op.Script}},
		{bb.Name(), []string{bb.Exe, "run", "-v", root + ":/work:ro", "-c", op.Script}},
	} {
		kib, err := peakRSS(ctx, root, env, r.argv[0], r.argv[1:]...)
		if err != nil {
			return nil, fmt.Errorf("measuring memory of %s through %s: %v", op.Name, r.name, err)
		}
		m.PeakRSSKiB[r.name] = kib
	}
	const calls = 200
	req := bashbox.Request{Script: "echo hi"}
	if _, err := bb.box.Run(ctx, req); err != nil { // warm: first-call setup is not per-call cost
		return nil, err
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range calls {
		if _, err := bb.box.Run(ctx, req); err != nil {
			return nil, err
		}
	}
	runtime.ReadMemStats(&after)
	m.EchoAllocBytes = int64(after.TotalAlloc-before.TotalAlloc) / calls
	return m, nil
}

func (m *Memory) writeText(w io.Writer, runners []string) {
	var parts []string
	for _, r := range runners {
		if kib, ok := m.PeakRSSKiB[r]; ok {
			parts = append(parts, fmt.Sprintf("%s %.1f MiB", r, float64(kib)/1024))
		}
	}
	fmt.Fprintf(w, "memory: peak RSS of %s as a fresh process: %s; %d bytes allocated per `echo hi` call in the library\n",
		m.Op, strings.Join(parts, ", "), m.EchoAllocBytes)
}

func (m *Memory) writeMarkdown(b *strings.Builder, runners []string) {
	fmt.Fprintf(b, "\nMemory: peak RSS of `%s` as a fresh process:", m.Op)
	for i, r := range runners {
		if kib, ok := m.PeakRSSKiB[r]; ok {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(b, "%s %s %.1f MiB", sep, r, float64(kib)/1024)
		}
	}
	fmt.Fprintf(b, "; %d bytes allocated per `echo hi` call through the library.\n", m.EchoAllocBytes)
}
