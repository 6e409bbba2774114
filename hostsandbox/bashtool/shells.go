package bashtool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/bashbox/bashbox/hostsandbox"
)

// Background shell states.
const (
	StatusRunning = "running"
	StatusExited  = "exited"
	StatusKilled  = "killed"
)

// ErrUnknownShell is returned for a shell id this Tool never issued.
var ErrUnknownShell = errors.New("bash tool: no such shell")

// ShellOutput is what BashOutput returns: the output produced since the
// previous call, and the shell's status.
type ShellOutput struct {
	ShellID  string `json:"shell_id"`
	Status   string `json:"status"`
	ExitCode *int   `json:"exit_code,omitempty"` // once not running
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	// DroppedBytes counts output lost because more than 1 MiB of a stream
	// piled up between calls.
	DroppedBytes int64 `json:"dropped_bytes,omitempty"`
}

// Text renders the output for the model.
func (o ShellOutput) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "status: %s", o.Status)
	if o.ExitCode != nil {
		fmt.Fprintf(&b, " (exit %d)", *o.ExitCode)
	}
	b.WriteString("\n")
	if o.DroppedBytes > 0 {
		fmt.Fprintf(&b, "[%d bytes of output dropped: poll more often]\n", o.DroppedBytes)
	}
	b.WriteString(o.Stdout)
	if o.Stderr != "" {
		if o.Stdout != "" && !strings.HasSuffix(o.Stdout, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("[stderr]\n" + o.Stderr)
	}
	return b.String()
}

type shell struct {
	id          string
	command     string
	description string
	started     time.Time
	proc        hostsandbox.Process
	stdout      *streamBuffer
	stderr      *streamBuffer
	done        chan struct{}

	mu       sync.Mutex
	status   string
	exitCode int
	killed   bool
}

func (t *Tool) startBackground(in Input) (Result, error) {
	t.mu.Lock()
	running := 0
	for _, s := range t.shells {
		if s.state() == StatusRunning {
			running++
		}
	}
	t.mu.Unlock()
	if running >= t.cfg.MaxBackground {
		return Result{}, fmt.Errorf("bash tool: %d background shells are already running; kill one first", running)
	}
	m := t.manifest(0)
	s := &shell{
		id: newID(), command: in.Command, description: in.Description, started: time.Now(),
		stdout: &streamBuffer{limit: BackgroundBufferLimit}, stderr: &streamBuffer{limit: BackgroundBufferLimit},
		done: make(chan struct{}), status: StatusRunning,
	}
	// A background shell outlives the call that started it: KillShell and
	// Close end it, not a context.
	proc, err := t.backend.Start(context.Background(), m, hostsandbox.Request{
		Args: []string{t.cfg.Shell, "-c", in.Command}, Dir: t.cfg.WorkDir, Stdout: s.stdout, Stderr: s.stderr,
	})
	if err != nil {
		return Result{}, err
	}
	s.proc = proc
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		_ = proc.Kill()
		_, _ = proc.Wait()
		return Result{}, errors.New("bash tool: closed")
	}
	t.shells[s.id] = s
	t.mu.Unlock()
	go s.wait()
	return Result{
		Output:  fmt.Sprintf("shell_id: %s\nstarted in background: %s\n", s.id, in.Command),
		ShellID: s.id, Backend: t.backend.Name(),
	}, nil
}

func (s *shell) wait() {
	code, _ := s.proc.Wait()
	s.mu.Lock()
	s.exitCode = code
	if s.killed {
		s.status = StatusKilled
	} else {
		s.status = StatusExited
	}
	s.mu.Unlock()
	close(s.done)
}

func (s *shell) state() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

func (s *shell) kill() {
	s.mu.Lock()
	if s.status == StatusRunning {
		s.killed = true
	}
	s.mu.Unlock()
	_ = s.proc.Kill()
}

func (s *shell) output() ShellOutput {
	s.mu.Lock()
	o := ShellOutput{ShellID: s.id, Status: s.status}
	if s.status != StatusRunning {
		code := s.exitCode
		o.ExitCode = &code
	}
	s.mu.Unlock()
	var d1, d2 int64
	o.Stdout, d1 = s.stdout.take()
	o.Stderr, d2 = s.stderr.take()
	o.DroppedBytes = d1 + d2
	return o
}

func (t *Tool) lookup(id string) (*shell, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.shells[id]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownShell, id)
	}
	return s, nil
}

// Output returns a background shell's new output and status (BashOutput).
func (t *Tool) Output(shellID string) (ShellOutput, error) {
	s, err := t.lookup(shellID)
	if err != nil {
		return ShellOutput{}, err
	}
	return s.output(), nil
}

// Kill ends a background shell and everything it started (KillShell), and
// returns its last output. Killing a finished shell just returns that.
func (t *Tool) Kill(shellID string) (ShellOutput, error) {
	s, err := t.lookup(shellID)
	if err != nil {
		return ShellOutput{}, err
	}
	s.kill()
	select {
	case <-s.done:
	case <-time.After(hostsandbox.OutputDrainDelay + 5*time.Second):
		return ShellOutput{}, fmt.Errorf("bash tool: shell %s did not stop", shellID)
	}
	return s.output(), nil
}
