package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// subreaper serialises peakRSS calls: being a subreaper is process-wide.
var subreaper sync.Mutex

// peakRSS runs the command at dir with env and returns the peak resident
// set, in KiB, of its process tree alone: its own and that of everything it
// waited for.
//
// The rusage of a child started directly is useless here: Go starts
// children with vfork (CLONE_VM), and exec records the high-water RSS of
// the mm it leaves, which is this process's, so a child of a bench that
// grew to 900 MiB reports 900 MiB whatever it did. So the command is
// started one level down, by a /bin/sh that forks it in the background and
// exits (the child execs the command only then): a forked child leaves the
// small shell's mm, not ours. This process, a subreaper meanwhile,
// inherits the orphan and reaps it with wait4, whose rusage is then the
// tree's own.
func peakRSS(ctx context.Context, dir string, env []string, name string, args ...string) (int64, error) {
	subreaper.Lock()
	defer subreaper.Unlock()
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("becoming a subreaper: %v", err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	// The child waits on a pipe until the launcher is gone: one that ended
	// first would be the launcher's to reap, its rusage lost to us.
	gateR, gateW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer gateW.Close()
	launcher := exec.CommandContext(ctx, "/bin/sh", append([]string{"-c",
		`{ read -r _ <&3; exec "$@" 3<&-; } </dev/null >/dev/null 2>&1 & echo $!`, "sh", name}, args...)...)
	launcher.Dir, launcher.Env = dir, env
	launcher.ExtraFiles = []*os.File{gateR}
	out, err := launcher.Output()
	gateR.Close()
	if err != nil {
		return 0, fmt.Errorf("starting %s: %v", name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, fmt.Errorf("starting %s: the launcher printed %q, not a pid", name, out)
	}
	gateW.Close() // EOF: the child goes on to exec the command
	// The launcher has exited, so the child is ours now; end it with ctx.
	stop := context.AfterFunc(ctx, func() { syscall.Kill(pid, syscall.SIGKILL) })
	defer stop()
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	for {
		_, err = syscall.Wait4(pid, &ws, 0, &ru)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return 0, fmt.Errorf("waiting for %s: %v", name, os.NewSyscallError("wait4", err))
	}
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	if !ws.Exited() || ws.ExitStatus() != 0 {
		return 0, fmt.Errorf("%s: %v", name, exitText(ws))
	}
	return ru.Maxrss, nil // KiB on Linux
}

func exitText(ws syscall.WaitStatus) string {
	if ws.Signaled() {
		return "killed by " + ws.Signal().String()
	}
	return fmt.Sprintf("exit status %d", ws.ExitStatus())
}
