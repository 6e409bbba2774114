//go:build unix && !linux

package hostsandbox

import (
	"os/exec"
	"syscall"
)

func setParentDeathSignal(*syscall.SysProcAttr) {}

// waitAndSweep waits for cmd, then kills what the leader left in its group.
// There is no portable non-reaping wait here; a group id stays reserved
// while any member lives, so the late kill cannot hit a stranger.
func waitAndSweep(cmd *exec.Cmd, exited func()) error {
	err := cmd.Wait()
	exited()
	killGroup(cmd.Process.Pid)
	return err
}
