//go:build linux

package hostsandbox

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// setParentDeathSignal kills the direct child if this process dies, so no
// sandbox outlives the server (bubblewrap's --die-with-parent then takes
// the rest of the sandbox down).
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// waitAndSweep waits for cmd, first killing whatever the leader left in its
// process group (jobs started with &, which would otherwise hold the output
// pipe open). The leader is observed without being reaped, so its process
// group id cannot be reused by then.
func waitAndSweep(cmd *exec.Cmd, exited func()) error {
	waitExitNoReap(cmd.Process.Pid)
	exited()
	killGroup(cmd.Process.Pid)
	return cmd.Wait()
}

// waitExitNoReap blocks until pid has exited, leaving it a zombie so its
// pid (and process group id) stays reserved until cmd.Wait reaps it.
func waitExitNoReap(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}
