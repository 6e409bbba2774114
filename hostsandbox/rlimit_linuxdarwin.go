//go:build linux || darwin

package hostsandbox

import "syscall"

// applyRlimits sets the address-space and CPU-time limits on this process;
// the exec'd command inherits them.
func applyRlimits(memBytes, cpuSecs uint64) error {
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
	return nil
}
