//go:build !linux

package bench

import (
	"syscall"
	"time"
)

// daemonAttr: no parent-death signal here; the daemon's --idle-exit
// ends it.
func daemonAttr() *syscall.SysProcAttr { return nil }

// ProcessCPU is 0: no per-process CPU clock without /proc; the daemon's share
// is then missing from the start-up CPU figures (the report says so).
func ProcessCPU(int) time.Duration { return 0 }
