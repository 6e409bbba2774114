//go:build !linux

package bench

import "time"

// ProcessCPU is 0: no per-process CPU clock without /proc; the daemon's share
// is then missing from the start-up CPU figures (the report says so).
func ProcessCPU(int) time.Duration { return 0 }
