//go:build linux || darwin

package hostsandbox

import (
	"os/signal"
	"syscall"
)

// applyRlimits sets the address-space, CPU-time and file-size limits on
// this process; the exec'd command inherits them.
func applyRlimits(memBytes, cpuSecs, fileBytes uint64) error {
	if memBytes > 0 {
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: memBytes, Max: memBytes}); err != nil {
			return err
		}
	}
	if cpuSecs > 0 {
		if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: cpuSecs, Max: cpuSecs}); err != nil {
			return err
		}
	}
	if fileBytes > 0 {
		// A write past the limit then fails with EFBIG ("File too
		// large"), which the command reports as its own write error,
		// instead of SIGXFSZ killing it mid-write: an ignored signal
		// stays ignored across exec.
		signal.Ignore(syscall.SIGXFSZ)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: fileBytes, Max: fileBytes}); err != nil {
			return err
		}
	}
	return nil
}
