//go:build !linux

package bench

import (
	"context"
	"io"
	"os/exec"
	"runtime"
	"syscall"
)

// peakRSS runs the command and returns its peak resident set in KiB, as
// wait4 reports it for the child and what it waited for. (On Linux the
// figure needs the detour of peakrss_linux.go; elsewhere this is the best
// there is.)
func peakRSS(ctx context.Context, dir string, env []string, name string, args ...string) (int64, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Run(); err != nil {
		return 0, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, nil
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024, nil // bytes there
	}
	return int64(ru.Maxrss), nil
}
