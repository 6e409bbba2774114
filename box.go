// Package bashbox runs shell scripts in-process, in a sandbox: a script is
// parsed and run by mvdan.cc/sh's interpreter, every command is a pure-Go
// implementation, and the only files it sees are the volumes the operator
// bound. No host process starts, there is no network, and each call is
// stateless and bounded by budgets.
//
//	box, err := bashbox.New(bashbox.Config{
//		Volumes: []volumes.Volume{{HostDir: ".", GuestPath: "/work", Mode: volumes.ReadOnly}},
//	})
//	res, err := box.Run(ctx, bashbox.Request{Script: "grep -rn TODO . | head"})
package bashbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils"
	"github.com/bashbox/bashbox/interp"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// Limits are a box's budgets; see interp.Limits. Zero fields take defaults.
type Limits = interp.Limits

// DefaultLimits are the budgets used for zero fields of Config.Limits.
var DefaultLimits = Limits{
	Timeout:           60 * time.Second,
	MaxCommands:       100_000,
	MaxLoopIterations: 1_000_000,
	MaxOutputBytes:    10 << 20,
	MaxMemoryBytes:    256 << 20,
	MaxOverlayBytes:   256 << 20,
	MaxOverlayFiles:   100_000,
}

// Config configures a box once; it is not changed afterwards.
type Config struct {
	Volumes []volumes.Volume
	// Workdir is the starting directory: default the first volume's guest
	// path, else /work.
	Workdir string
	Limits  Limits
	// Env adds NAME=VALUE pairs to the sandbox's fixed environment.
	Env []string
	// Fallback names host commands that run for real; see package fallback.
	Fallback interp.Fallback
	// Commands adds or replaces sandbox commands.
	Commands map[string]builtins.Command
}

// Box is a configured sandbox. Run is safe for concurrent use.
type Box struct {
	cfg      Config
	table    *volumes.Table
	registry *builtins.Registry
	commands []string
	env      []string
	workdir  string
}

// New validates cfg and opens the volumes.
func New(cfg Config) (*Box, error) {
	vols := cfg.Volumes
	if len(vols) == 0 {
		vols = []volumes.Volume{{GuestPath: volumes.DefaultGuestPath, Mode: volumes.Ephemeral}}
	}
	table, err := volumes.NewTable(vols)
	if err != nil {
		return nil, err
	}
	reg := builtins.NewRegistry()
	coreutils.Register(reg)
	for name, cmd := range cfg.Commands {
		reg.Register(name, cmd)
	}
	b := &Box{cfg: cfg, table: table, registry: reg}
	b.commands = append(reg.Names(), "bash", "sh")
	sort.Strings(b.commands)
	b.workdir = cfg.Workdir
	if b.workdir == "" {
		b.workdir = table.Volumes()[0].GuestPath
	}
	b.cfg.Limits = withDefaults(cfg.Limits)
	b.env = append([]string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=/home/user",
		"SHELL=/bin/bash",
		"USER=user",
		"LANG=C.UTF-8",
		"TMPDIR=/tmp",
	}, cfg.Env...)
	return b, nil
}

func withDefaults(l Limits) Limits {
	d := DefaultLimits
	if l.Timeout == 0 {
		l.Timeout = d.Timeout
	}
	if l.MaxCommands == 0 {
		l.MaxCommands = d.MaxCommands
	}
	if l.MaxLoopIterations == 0 {
		l.MaxLoopIterations = d.MaxLoopIterations
	}
	if l.MaxOutputBytes == 0 {
		l.MaxOutputBytes = d.MaxOutputBytes
	}
	if l.MaxMemoryBytes == 0 {
		l.MaxMemoryBytes = d.MaxMemoryBytes
	}
	if l.MaxOverlayBytes == 0 {
		l.MaxOverlayBytes = d.MaxOverlayBytes
	}
	if l.MaxOverlayFiles == 0 {
		l.MaxOverlayFiles = d.MaxOverlayFiles
	}
	return l
}

// Close releases the volumes' host directory handles.
func (b *Box) Close() error { return b.table.Close() }

// Limits returns the box's effective budgets.
func (b *Box) Limits() Limits { return b.cfg.Limits }

// Commands lists the commands available in the sandbox.
func (b *Box) Commands() []string { return append([]string(nil), b.commands...) }

// Volumes lists the box's volumes.
func (b *Box) Volumes() []volumes.Volume { return b.table.Volumes() }

// Request is one call.
type Request struct {
	Script string
	// Name is $0 (default "bash"); Args are $1...
	Name string
	Args []string
	// Stdin is the script's standard input (default: empty).
	Stdin io.Reader
	// Stdout and Stderr, when set, receive the streams as they are written
	// (within the output budget); the result holds them as well unless
	// DiscardCapture is set.
	Stdout, Stderr io.Writer
	DiscardCapture bool
	// Workdir overrides the box's starting directory.
	Workdir string
	// Env adds NAME=VALUE pairs for this call.
	Env []string
	// Timeout lowers the box's wall-clock budget for this call.
	Timeout time.Duration
}

// Truncated says which streams lost bytes to the output budget.
type Truncated struct {
	Stdout bool `json:"stdout"`
	Stderr bool `json:"stderr"`
}

// Result is the outcome of a call (DESIGN.md §2).
type Result struct {
	Stdout      string       `json:"stdout"`
	Stderr      string       `json:"stderr"`
	ExitCode    int          `json:"exit_code"`
	DurationMS  int64        `json:"duration_ms"`
	Truncated   Truncated    `json:"truncated"`
	Budget      *interp.Trip `json:"budget"`
	CommandsRun int64        `json:"commands_run"`
}

// Run runs one script. The error is non-nil only when the call could not
// start; a failing script is a Result with a non-zero ExitCode.
func (b *Box) Run(ctx context.Context, req Request) (*Result, error) {
	return b.run(ctx, req, nil)
}

// Session is a shell whose working directory, variables, functions,
// aliases and files (the in-memory layers: /tmp, $HOME, writes to
// read-only volumes) persist between its calls. Each call still has its
// own budgets. Use one only where state between calls is wanted: Run is
// stateless.
type Session struct {
	box   *Box
	ns    *volumes.Namespace
	quota *overlayfs.Quota
	trip  func(name string, limit int64) // the current call's budget
	shell *interp.Shell
	sess  *interp.Session
	mu    sync.Mutex
}

// NewSession starts a session in the box's starting directory.
func (b *Box) NewSession() (*Session, error) {
	s := &Session{box: b}
	limits := b.cfg.Limits
	s.quota = newQuota(limits, func(name string, limit int64) {
		if s.trip != nil {
			s.trip(name, limit)
		}
	})
	s.ns = b.table.Namespace(volumes.Options{Quota: s.quota, Commands: b.commands, Home: "/home/user"})
	s.shell = &interp.Shell{Registry: b.registry, FS: s.ns, Fallback: b.cfg.Fallback}
	sess, err := s.shell.NewSession(b.env, b.workdir)
	if err != nil {
		return nil, err
	}
	s.sess = sess
	return s, nil
}

// Run runs one script in the session.
func (s *Session) Run(ctx context.Context, req Request) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.box.run(ctx, req, s)
}

// Workdir is the session's current directory.
func (s *Session) Workdir() string { return s.sess.Dir() }

// gracePeriod is how long a call may take to wind down once a budget
// stopped it; past it Run returns anyway.
const gracePeriod = 900 * time.Millisecond

func (b *Box) run(ctx context.Context, req Request, sess *Session) (*Result, error) {
	start := time.Now()
	limits := b.cfg.Limits
	if req.Timeout > 0 && req.Timeout < limits.Timeout {
		limits.Timeout = req.Timeout
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	budget := interp.NewBudget(limits, cancel)
	timer := time.AfterFunc(limits.Timeout, func() { budget.Trip(interp.BudgetTime, int64(limits.Timeout)) })
	defer timer.Stop()

	keep := !req.DiscardCapture
	hard := func() { budget.Trip(interp.BudgetOutput, limits.MaxOutputBytes) }
	stdout := newCapture(limits.MaxOutputBytes, req.Stdout, keep, hard)
	stderr := newCapture(limits.MaxOutputBytes, req.Stderr, keep, hard)
	env := append(append([]string(nil), b.env...), req.Env...)

	var exec func() int
	if sess != nil {
		sess.trip = budget.Trip
		defer func() { sess.trip = nil }()
		exec = func() int { return sess.sess.Run(runCtx, budget, req.Script, req.Stdin, stdout, stderr) }
	} else {
		quota := newQuota(limits, budget.Trip)
		ns := b.table.Namespace(volumes.Options{Quota: quota, Commands: b.commands, Home: "/home/user"})
		shell := &interp.Shell{Registry: b.registry, FS: ns, Budget: budget, Fallback: b.cfg.Fallback}
		dir := b.workdir
		if req.Workdir != "" {
			dir = req.Workdir
		}
		if fi, err := ns.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("workdir %s: not a directory in the sandbox", dir)
		}
		inv := interp.Invocation{
			Script: req.Script, Name: req.Name, Params: req.Args, Source: "-c",
			Env: env, Dir: dir, Stdin: req.Stdin, Stdout: stdout, Stderr: stderr,
		}
		exec = func() int { return shell.Run(runCtx, inv) }
	}
	done := make(chan int, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(stderr, "bashbox: internal error: %v\n", p)
				done <- 2
			}
		}()
		done <- exec()
	}()
	var code int
	select {
	case code = <-done:
	case <-runCtx.Done():
		select {
		case code = <-done:
		case <-time.After(gracePeriod):
			code = 1
		}
	}
	res := &Result{CommandsRun: budget.Commands()}
	if trip := budget.Tripped(); trip != nil {
		res.Budget = trip
		code = trip.ExitCode()
		fmt.Fprintln(stderr, trip.Message())
	} else if errors.Is(ctx.Err(), context.Canceled) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		code = 130
	}
	res.ExitCode = code
	res.Stdout, res.Truncated.Stdout = stdout.finish()
	res.Stderr, res.Truncated.Stderr = stderr.finish()
	res.DurationMS = time.Since(start).Milliseconds()
	return res, nil
}

// newQuota bounds the in-memory layers by limits and reports a refusal to
// trip with the budget's name and limit.
func newQuota(limits Limits, trip func(name string, limit int64)) *overlayfs.Quota {
	return &overlayfs.Quota{
		MaxBytes: limits.MaxOverlayBytes,
		MaxFiles: limits.MaxOverlayFiles,
		OnExceeded: func(name string) {
			limit := limits.MaxOverlayBytes
			if name == interp.BudgetOverlayFiles {
				limit = limits.MaxOverlayFiles
			}
			trip(name, limit)
		},
	}
}
