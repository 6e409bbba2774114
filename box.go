// Package bashbox runs shell scripts in-process, in a sandbox: a script is
// parsed by mvdan.cc/sh's bash parser and run by bashbox's own shell engine
// (package interp), every command is a pure-Go
// implementation, and the only files it sees are the volumes the operator
// bound. No host process starts, there is no network, and each call is
// stateless and bounded by budgets.
//
//	box, err := bashbox.New(bashbox.Config{
//		Volumes: []bashbox.Volume{{HostDir: ".", GuestPath: "/work", Mode: bashbox.ReadOnly}},
//	})
//	res, err := box.Run(ctx, bashbox.Request{Script: "grep -rn TODO . | head"})
//
// The types a caller needs (Limits, Volume and its modes, Budget) are
// declared here; the packages behind them (interp, volumes) need not be
// imported.
package bashbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/changeset"
	"github.com/bashbox/bashbox/coreutils"
	"github.com/bashbox/bashbox/interp"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/pacing"
	"github.com/bashbox/bashbox/volumes"
)

// Limits are a box's budgets. Zero fields take DefaultLimits; a limit
// cannot be switched off.
type Limits = interp.Limits

// Budget names the budget that stopped a call and its limit, in the
// budget's own unit: Limit is nanoseconds (a time.Duration) for "timeout",
// bytes for "output", "memory" and "overlay_bytes", a count for
// "commands", "loop_iterations" and "overlay_files". In the JSON result
// object the timeout's limit is in seconds.
type Budget = interp.Trip

// Volume binds a host directory at a guest path; see the Mode constants.
type Volume = volumes.Volume

// Mode is how a volume is bound.
type Mode = volumes.Mode

// The volume modes.
const (
	// ReadOnly: the host directory is the base of a copy-on-write overlay;
	// writes land in memory and vanish after the call.
	ReadOnly = volumes.ReadOnly
	// ReadWrite: writes go through to the host directory.
	ReadWrite = volumes.ReadWrite
	// Ephemeral: an empty in-memory directory for the call (no HostDir).
	Ephemeral = volumes.Ephemeral
)

// ErrClosed is returned by Run and NewSession on a closed box.
var ErrClosed = errors.New("bashbox: box is closed")

// DefaultLimits are the budgets used for zero fields of Config.Limits.
var DefaultLimits = Limits{
	Timeout:           60 * time.Second,
	MaxCommands:       100_000,
	MaxLoopIterations: 1_000_000,
	MaxOutputBytes:    10 << 20,
	MaxMemoryBytes:    256 << 20,
	MaxOverlayBytes:   256 << 20,
	MaxOverlayFiles:   100_000,
	MaxWriteBytes:     1 << 30,
	MaxWriteFiles:     100_000,
	MaxNesting:        1000,
}

// Config configures a box once; it is not changed afterwards.
type Config struct {
	// Volumes are bound in order; without any, /work is Ephemeral.
	Volumes []Volume
	// Workdir is the starting directory: default the first volume's guest
	// path, else /work.
	Workdir string
	Limits  Limits
	// Env adds NAME=VALUE pairs to the sandbox's fixed environment.
	Env []string
	// Fallback names host commands that run for real; see package fallback.
	Fallback interp.Fallback
	// Commands adds or replaces sandbox commands: a name and the Go
	// function that runs it (see package builtins for the contract).
	Commands map[string]builtins.Command
	// OnlyCommands, when not empty, chooses the command set: the sandbox
	// has these commands only, each taken from Commands or else from the
	// default set (DefaultCommands), and New refuses a name neither has.
	// The shell itself (bash, sh and its builtins) is always there.
	OnlyCommands []string
	// Pacing, when set, shares the processor between the calls of every
	// box using it: calls past the scheduler's grace period yield to
	// younger ones (see package pacing). A server sets one for all its
	// profiles.
	Pacing *pacing.Scheduler
	// Tenant names this box's calls to Pacing, which remembers a tenant
	// whose calls ran long (a server uses the profile's name).
	Tenant string
	// Workers bounds the goroutines one command may search or compute
	// with (grep -r and find read files in parallel): 0 lets each command
	// pick from the CPUs (up to four), 1 keeps every command sequential.
	// A server running many calls at once may want 1 or 2, so that one
	// call's grep cannot take every core.
	Workers int
}

// DefaultCommands lists the commands a box has when Config.OnlyCommands is
// empty.
func DefaultCommands() []string {
	reg, _ := defaultCommandSet()
	return reg.Names()
}

// defaultCommandSet is the registry of the default commands and the
// sorted names a box's /bin lists, built once per process: a server or the
// daemon makes a box per call, and building both took a quarter of the
// CPU of a `bashbox run -c true` served by the daemon. A registry is only
// read once built, so boxes share it.
var defaultCommandSet = sync.OnceValues(func() (*builtins.Registry, []string) {
	reg := builtins.NewRegistry()
	coreutils.Register(reg)
	return reg, withShells(reg.Names())
})

// withShells adds bash and sh, which the engine runs itself, to a
// registry's names, sorted.
func withShells(names []string) []string {
	names = append(names, "bash", "sh")
	sort.Strings(names)
	return names
}

// Box is a configured sandbox. Run is safe for concurrent use.
type Box struct {
	cfg      Config
	table    *volumes.Table
	registry *builtins.Registry
	commands []string
	env      []string
	workdir  string
	closed   atomic.Bool
}

// New validates cfg and opens the volumes.
func New(cfg Config) (*Box, error) {
	vols := cfg.Volumes
	if len(vols) == 0 {
		vols = []volumes.Volume{{GuestPath: volumes.DefaultGuestPath, Mode: volumes.Ephemeral}}
	}
	if err := checkLimits(cfg.Limits); err != nil {
		return nil, err
	}
	if cfg.Workers < 0 {
		return nil, errors.New("Config.Workers is negative: 0 lets commands pick, 1 keeps them sequential")
	}
	table, err := volumes.NewTable(vols)
	if err != nil {
		return nil, err
	}
	b := &Box{cfg: cfg, table: table}
	if len(cfg.Commands) == 0 && len(cfg.OnlyCommands) == 0 {
		b.registry, b.commands = defaultCommandSet()
	} else {
		reg, err := commandRegistry(cfg)
		if err != nil {
			table.Close()
			return nil, err
		}
		b.registry, b.commands = reg, withShells(reg.Names())
	}
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

// commandRegistry builds the box's command set from the defaults,
// cfg.Commands and cfg.OnlyCommands.
func commandRegistry(cfg Config) (*builtins.Registry, error) {
	all := builtins.NewRegistry()
	coreutils.Register(all)
	for name, cmd := range cfg.Commands {
		all.Register(name, cmd)
	}
	if len(cfg.OnlyCommands) == 0 {
		return all, nil
	}
	reg := builtins.NewRegistry()
	for _, name := range cfg.OnlyCommands {
		cmd, ok := all.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("OnlyCommands: unknown command %q (not in Commands nor in DefaultCommands)", name)
		}
		reg.Register(name, cmd)
	}
	return reg, nil
}

// limitFields lists the budgets of l by name, as pointers, so checking
// and defaulting go over one list.
func limitFields(l *Limits) []struct {
	name string
	v    *int64
} {
	return []struct {
		name string
		v    *int64
	}{
		{"Timeout", (*int64)(&l.Timeout)}, {"MaxCommands", &l.MaxCommands}, {"MaxLoopIterations", &l.MaxLoopIterations},
		{"MaxOutputBytes", &l.MaxOutputBytes}, {"MaxMemoryBytes", &l.MaxMemoryBytes},
		{"MaxOverlayBytes", &l.MaxOverlayBytes}, {"MaxOverlayFiles", &l.MaxOverlayFiles},
		{"MaxWriteBytes", &l.MaxWriteBytes}, {"MaxWriteFiles", &l.MaxWriteFiles}, {"MaxNesting", &l.MaxNesting},
	}
}

// checkLimits refuses a negative budget: zero takes the default, and no
// budget can be switched off.
func checkLimits(l Limits) error {
	for _, f := range limitFields(&l) {
		if *f.v < 0 {
			return fmt.Errorf("Limits.%s is negative: a budget is positive, or zero for the default", f.name)
		}
	}
	return nil
}

// withDefaults fills the zero budgets of l from DefaultLimits.
func withDefaults(l Limits) Limits {
	d := DefaultLimits
	defaults := limitFields(&d)
	for i, f := range limitFields(&l) {
		if *f.v == 0 {
			*f.v = *defaults[i].v
		}
	}
	return l
}

// Close releases the volumes' host directory handles. Calls started after
// it fail with ErrClosed; close a box only once its calls have returned.
func (b *Box) Close() error {
	if b.closed.Swap(true) {
		return nil
	}
	return b.table.Close()
}

// Limits returns the box's effective budgets.
func (b *Box) Limits() Limits { return b.cfg.Limits }

// Commands lists the commands available in the sandbox.
func (b *Box) Commands() []string { return append([]string(nil), b.commands...) }

// Volumes lists the box's volumes.
func (b *Box) Volumes() []Volume { return b.table.Volumes() }

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
	// Changes, when set, asks for the change set of a read-only volume
	// in the result (see ChangesRequest).
	Changes *ChangesRequest
	// Files are written before the script starts, names resolved as the
	// script would (relative to its starting directory), parents created.
	// In a session they stay, like anything the session writes.
	Files map[string]string
}

// Truncated says which streams lost bytes to the output budget.
type Truncated struct {
	Stdout bool `json:"stdout"`
	Stderr bool `json:"stderr"`
}

// Result is the outcome of a call. Its JSON form is the result object of
// the CLI's --json and of the HTTP and MCP servers; fields may be added,
// none is renamed.
type Result struct {
	Stdout      string    `json:"stdout"`
	Stderr      string    `json:"stderr"`
	ExitCode    int       `json:"exit_code"`
	DurationMS  int64     `json:"duration_ms"`
	Truncated   Truncated `json:"truncated"`
	Budget      *Budget   `json:"budget"` // nil unless a budget stopped the call
	CommandsRun int64     `json:"commands_run"`
	// Changes is the change set asked for by Request.Changes.
	Changes *changeset.Output `json:"changes,omitempty"`
}

// Run runs one script, statelessly: every call gets a fresh shell and
// fresh in-memory layers, and sees rw volumes as the host has them.
//
// The error is non-nil only when the call could not start (a closed box,
// a Request.Workdir that is not a directory); a failing script is a Result
// with a non-zero ExitCode, and so is a stopped one:
//   - a budget stops the call with ExitCode 124 (timeout) or 125 (the
//     others), Result.Budget naming it, and one "bashbox: budget exceeded"
//     line at the end of Stderr;
//   - cancelling ctx (or its deadline passing) stops the script the same
//     way, within about a second, with ExitCode 130 (as bash reports an
//     interrupt) and Budget nil. Output written until then is kept.
//
// Run is safe for concurrent use: calls share nothing but the box's
// configuration and the host directories of its volumes (two calls writing
// the same file of a rw volume race as two host processes would). No
// goroutine of a call outlives its return.
//
// Streaming: when Request.Stdout or Stderr is set, output reaches it as the
// script writes it, one Write at a time per stream (never concurrently on
// one writer), from the call's goroutines; a writer that blocks holds up
// the script, though not the timeout. Past the output budget the middle is
// cut: the writer gets the head live and, at the end, the truncation
// marker and the tail.
func (b *Box) Run(ctx context.Context, req Request) (*Result, error) {
	if b.closed.Load() {
		return nil, ErrClosed
	}
	return b.run(ctx, req, nil)
}

// Session is a shell whose working directory, variables, functions,
// aliases and files (the in-memory layers: /tmp, $HOME, writes to
// read-only volumes) persist between its calls. Each call still has its
// own budgets. Use one only where state between calls is wanted: Run is
// stateless.
type Session struct {
	box    *Box
	ns     *volumes.Namespace
	quota  *overlayfs.Quota
	writes *overlayfs.WriteQuota          // reset for each call
	trip   func(name string, limit int64) // the current call's budget
	pace   atomic.Pointer[func()]         // the current call's Budget.Yield
	shell  *interp.Shell
	sess   *interp.Session
	mu     sync.Mutex

	closed bool
}

// NewSession starts a session in the box's starting directory.
func (b *Box) NewSession() (*Session, error) {
	if b.closed.Load() {
		return nil, ErrClosed
	}
	s := &Session{box: b}
	limits := b.cfg.Limits
	s.quota = newQuota(limits, func(name string, limit int64) {
		if s.trip != nil {
			s.trip(name, limit)
		}
	})
	writes := newWriteQuota(limits, func(name string, limit int64) {
		if s.trip != nil {
			s.trip(name, limit)
		}
	})
	s.writes = writes
	pace := func() {
		if p := s.pace.Load(); p != nil {
			(*p)()
		}
	}
	s.ns = b.table.Namespace(volumes.Options{Quota: s.quota, Writes: writes, Commands: b.commands, Home: "/home/user", Pace: pace})
	s.shell = &interp.Shell{Registry: b.registry, FS: s.ns, Fallback: b.cfg.Fallback, Workers: b.cfg.Workers}
	sess, err := s.shell.NewSession(b.env, b.workdir)
	if err != nil {
		return nil, err
	}
	s.sess = sess
	return s, nil
}

// Run runs one script in the session, as Box.Run does. Calls on one
// session run one at a time, in the order they take its lock.
func (s *Session) Run(ctx context.Context, req Request) (*Result, error) {
	if s.box.closed.Load() {
		return nil, ErrClosed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrSessionClosed
	}
	return s.box.run(ctx, req, s)
}

// Workdir is the session's current directory.
func (s *Session) Workdir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ""
	}
	return s.sess.Dir()
}

func (b *Box) run(ctx context.Context, req Request, sess *Session) (*Result, error) {
	start := time.Now()
	changesReq, err := b.checkChanges(req.Changes)
	if err != nil {
		return nil, err
	}
	limits := b.cfg.Limits
	if req.Timeout > 0 && req.Timeout < limits.Timeout {
		limits.Timeout = req.Timeout
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	budget := interp.NewBudget(limits, cancel)
	if b.cfg.Pacing != nil {
		ticket := b.cfg.Pacing.Begin(b.cfg.Tenant)
		defer ticket.End()
		budget.Pace = func() { ticket.Pace(runCtx) }
		budget.PaceBytes = func(n int64) { ticket.PaceBytes(runCtx, n) }
		budget.Yield = func() { ticket.Yield(runCtx) }
	}
	timer := time.AfterFunc(limits.Timeout, func() { budget.Trip(interp.BudgetTime, int64(limits.Timeout)) })
	defer timer.Stop()

	keep := !req.DiscardCapture
	hard := func() { budget.Trip(interp.BudgetOutput, limits.MaxOutputBytes) }
	stdout := newCapture(limits.MaxOutputBytes, req.Stdout, keep, hard)
	stderr := newCapture(limits.MaxOutputBytes, req.Stderr, keep, hard)
	stdout.pace, stderr.pace = budget.Pace, budget.Pace
	env := append(append([]string(nil), b.env...), req.Env...)

	var exec func() int
	var ns *volumes.Namespace
	if sess != nil {
		ns = sess.ns
		sess.trip = budget.Trip
		if budget.Yield != nil {
			sess.pace.Store(&budget.Yield)
		}
		sess.writes.Reset()
		defer func() { sess.trip = nil; sess.pace.Store(nil) }()
		if len(req.Files) > 0 {
			if err := writeFiles(runCtx, sess.ns, sess.sess.Dir(), req.Files); err != nil {
				return nil, err
			}
		}
		// A session call's env is exported into the session, as if the
		// script began with export NAME=VALUE (run apart, so that the
		// script's line numbers stay its own).
		exports, err := exportScript(req.Env)
		if err != nil {
			return nil, err
		}
		exec = func() int {
			if exports != "" {
				if st := sess.sess.Run(runCtx, budget, exports, nil, stdout, stderr); st != 0 {
					return st
				}
			}
			return sess.sess.Run(runCtx, budget, req.Script, req.Stdin, stdout, stderr)
		}
	} else {
		quota := newQuota(limits, budget.Trip)
		writes := newWriteQuota(limits, budget.Trip)
		ns = b.table.Namespace(volumes.Options{Quota: quota, Writes: writes, Commands: b.commands, Home: "/home/user", Pace: budget.Yield})
		shell := &interp.Shell{Registry: b.registry, FS: ns, Budget: budget, Fallback: b.cfg.Fallback, Workers: b.cfg.Workers}
		dir := b.workdir
		if req.Workdir != "" {
			dir = req.Workdir
		}
		if fi, err := ns.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("workdir %s: not a directory in the sandbox", dir)
		}
		if err := writeFiles(runCtx, ns, dir, req.Files); err != nil {
			return nil, err
		}
		inv := interp.Invocation{
			Script: req.Script, Name: req.Name, Params: req.Args, Source: "-c",
			Env: env, Dir: dir, Stdin: req.Stdin, Stdout: stdout, Stderr: stderr,
		}
		exec = func() int { return shell.Run(runCtx, inv) }
	}
	// Run returns only once the script and everything it started ended:
	// the caller's concurrency slot and the call's budgets then still
	// bound the call's work. Commands stop within a few milliseconds of
	// cancellation, so a stopped call ends well within a second. The
	// script runs on the caller's goroutine: a goroutine of its own would
	// only wait, and its start (a thread woken or created, a stack grown
	// from 8 KiB) is a measurable share of a CLI run's start-up.
	code := guarded(exec, stderr)
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
	if changesReq != nil {
		res.Changes = b.changesOf(ns, changesReq)
	}
	res.DurationMS = time.Since(start).Milliseconds()
	return res, nil
}

// guarded runs exec and turns a panic that escapes it into an internal
// error of the call (status 2) instead of the caller's crash.
func guarded(exec func() int, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "bashbox: internal error: %v\n", p)
			code = 2
		}
	}()
	return exec()
}

// newQuota bounds the in-memory layers by limits and reports a refusal to
// trip with the budget's name and limit.
func newQuota(limits Limits, trip func(name string, limit int64)) *overlayfs.Quota {
	return &overlayfs.Quota{
		MaxBytes:   limits.MaxOverlayBytes,
		MaxFiles:   limits.MaxOverlayFiles,
		OnExceeded: tripWith(trip, interp.BudgetOverlayFiles, limits.MaxOverlayBytes, limits.MaxOverlayFiles),
	}
}

// newWriteQuota bounds what a call writes through to read-write volumes.
func newWriteQuota(limits Limits, trip func(name string, limit int64)) *overlayfs.WriteQuota {
	return &overlayfs.WriteQuota{
		MaxBytes:   limits.MaxWriteBytes,
		MaxFiles:   limits.MaxWriteFiles,
		OnExceeded: tripWith(trip, interp.BudgetWriteFiles, limits.MaxWriteBytes, limits.MaxWriteFiles),
	}
}

// tripWith reports a quota's refusal to trip with the limit of the budget
// named: filesName counts files, the other budget bytes.
func tripWith(trip func(name string, limit int64), filesName string, maxBytes, maxFiles int64) func(string) {
	return func(name string) {
		limit := maxBytes
		if name == filesName {
			limit = maxFiles
		}
		trip(name, limit)
	}
}
