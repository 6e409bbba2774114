package hostsandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// Request is one command to start inside a sandbox.
type Request struct {
	// Args is the argv; Args[0] is looked up on the manifest's PATH inside
	// the sandbox when it has no slash.
	Args []string
	// Dir is the starting directory (an absolute host path that the manifest
	// allows). Empty means the backend's choice.
	Dir string
	// Stdout and Stderr receive the command's output. When they are the same
	// comparable writer the streams share one pipe, so their order is kept.
	Stdout io.Writer
	Stderr io.Writer
	// Stdin feeds the command; nil means the null device (reads see EOF at
	// once). Backends that cannot forward it refuse a non-nil Stdin.
	Stdin io.Reader
}

// Process is a started sandboxed command.
type Process interface {
	// Wait blocks until the command has exited and its output has been
	// drained (at most OutputDrainDelay after exit, even if a grandchild
	// still holds the pipe). It returns the exit status; a command ended by
	// a signal reports 128+signal, as shells do.
	Wait() (exitCode int, err error)
	// Kill ends the command and everything it started. Safe to call more
	// than once and after exit.
	Kill() error
}

// Backend runs commands inside one kind of OS sandbox.
type Backend interface {
	// Name identifies the backend: "bubblewrap", "sandbox-exec",
	// "appcontainer", "docker", "none" or "fail-closed".
	Name() string
	// Start validates m, refuses what the backend cannot enforce, and
	// starts req. When ctx ends before the command has exited, the command
	// and everything it started are killed.
	Start(ctx context.Context, m *Manifest, req Request) (Process, error)
}

// OutputDrainDelay bounds how long Wait keeps reading output after the
// command exited or was killed, so an escaped grandchild that holds the
// pipe cannot hold up the caller.
const OutputDrainDelay = 2 * time.Second

// defaultTimeout is used by Run when neither the manifest nor the backend
// names one.
const defaultTimeout = 30 * time.Second

// Outcome is how a Run ended.
type Outcome struct {
	ExitCode int
	TimedOut bool
	Duration time.Duration
}

// ExitTimedOut is the exit status Run reports on timeout, as timeout(1) does.
const ExitTimedOut = 124

// Run starts req in b under m and waits for it, killing the whole process
// tree when m.Timeout (or the backend's default) passes or ctx ends. On
// timeout the outcome has TimedOut set and ExitCode 124; when ctx ends first
// the error is ctx.Err().
func Run(ctx context.Context, b Backend, m *Manifest, req Request) (Outcome, error) {
	if b == nil {
		return Outcome{}, errors.New("hostsandbox: no backend")
	}
	timeout := m.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
		if d, ok := b.(interface{ DefaultTimeout() time.Duration }); ok {
			timeout = d.DefaultTimeout()
		}
	}
	start := time.Now()
	p, err := b.Start(ctx, m, req)
	if err != nil {
		return Outcome{}, err
	}
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		code, err := p.Wait()
		done <- result{code, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return Outcome{ExitCode: r.code, Duration: time.Since(start)}, r.err
	case <-timer.C:
		_ = p.Kill()
		<-done
		return Outcome{ExitCode: ExitTimedOut, TimedOut: true, Duration: time.Since(start)}, nil
	case <-ctx.Done():
		_ = p.Kill()
		<-done
		return Outcome{ExitCode: -1, Duration: time.Since(start)}, ctx.Err()
	}
}

// failClosed refuses every command with a message saying how to fix it.
// missing says in a few words what is missing ("bubblewrap not found"),
// for messages that point to bashbox doctor instead of the full fix.
type failClosed struct{ reason, missing string }

func (f failClosed) Name() string { return "fail-closed" }

func (f failClosed) Start(context.Context, *Manifest, Request) (Process, error) {
	return nil, fmt.Errorf("%w: %s", ErrUnavailable, f.reason)
}

// Unavailable reports whether b is the backend Select returns when no OS
// sandbox can be used, and if so what is missing, in a few words.
func Unavailable(b Backend) (missing string, ok bool) {
	if f, is := b.(failClosed); is {
		if f.missing == "" {
			return "no backend works", true
		}
		return f.missing, true
	}
	return "", false
}

// Confining reports whether b confines what it runs: false for the
// no-sandbox backend (BASHBOX_ALLOW_NO_SANDBOX) and the fail-closed one.
func Confining(b Backend) bool {
	switch b.(type) {
	case noSandbox, failClosed, nil:
		return false
	}
	return true
}

// killOnDone kills p when ctx ends before the process has exited; the
// returned stop must be called once it has.
func killOnDone(ctx context.Context, p Process) (stop func() bool) {
	return context.AfterFunc(ctx, func() { _ = p.Kill() })
}
