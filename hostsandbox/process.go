package hostsandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

// execProcess is the Process of every backend that runs a host program
// (bubblewrap, sandbox-exec, no sandbox): the program leads its own process
// group, which Kill ends as a whole.
type execProcess struct {
	cmd     *exec.Cmd
	exited  atomic.Bool // set once the leader has exited; Kill is then a no-op
	done    chan struct{}
	code    int
	err     error
	cleanup func()
	stopCtx func() bool
}

// startExec starts cmd in a new process group reading stdin (nil: the null
// device, so reads see EOF at once). The whole group is killed when ctx
// ends first. cleanup runs once the process has been waited for.
func startExec(ctx context.Context, cmd *exec.Cmd, stdin io.Reader, cleanup func()) (*execProcess, error) {
	cmd.Stdin = stdin
	cmd.WaitDelay = OutputDrainDelay
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		if cleanup != nil {
			cleanup()
		}
		return nil, fmt.Errorf("starting %s: %w", filepath.Base(cmd.Path), err)
	}
	p := &execProcess{cmd: cmd, done: make(chan struct{}), cleanup: cleanup}
	p.stopCtx = killOnDone(ctx, p)
	go p.wait()
	return p, nil
}

func (p *execProcess) wait() {
	defer close(p.done)
	// Kill becomes a no-op before the leader is reaped, so it can never
	// signal a process group id the system has handed out again.
	err := waitAndSweep(p.cmd, func() { p.stopCtx(); p.exited.Store(true) })
	p.code = exitCodeOf(p.cmd.ProcessState)
	var exitErr *exec.ExitError
	switch {
	case err == nil, errors.As(err, &exitErr):
	case errors.Is(err, exec.ErrWaitDelay):
		// A descendant kept the output pipe open past the drain delay; the
		// command itself has finished, so this is not a failure.
	default:
		p.err = err
	}
	if p.cleanup != nil {
		p.cleanup()
	}
}

func (p *execProcess) Wait() (int, error) {
	<-p.done
	return p.code, p.err
}

func (p *execProcess) Kill() error {
	if p.exited.Load() {
		return nil
	}
	killGroup(p.cmd.Process.Pid)
	return nil
}

// lookPathIn resolves name on the PATH given (the sandbox's, not ours).
func lookPathIn(name, pathEnv string) (string, error) {
	if strings.ContainsRune(name, os.PathSeparator) || strings.ContainsRune(name, '/') {
		return name, nil
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		for _, cand := range executableNames(filepath.Join(dir, name)) {
			if fi, err := os.Stat(cand); err == nil && !fi.IsDir() && isExecutable(fi) {
				return cand, nil
			}
		}
	}
	return "", fmt.Errorf("%s: command not found on the sandbox PATH", name)
}

// onceOK caches a successful check for the life of the process; failures
// are not cached.
type onceOK struct {
	mu sync.Mutex
	ok bool
}

func (o *onceOK) check(f func() error) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ok {
		return nil
	}
	if err := f(); err != nil {
		return err
	}
	o.ok = true
	return nil
}
