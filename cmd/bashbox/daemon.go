//go:build !bashbox_front && unix

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/internal/daemon"
)

// daemonCommand serves `bashbox run` to the native launcher (make build
// installs it as bin/bashbox) over a Unix socket. See package daemon for
// why, and docs/daemon.md for what an operator needs to know.
func daemonCommand(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bashbox daemon", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	socket := fs.String("socket", "", "the socket to listen on (default $"+daemon.SocketEnv+", else /tmp/bashbox-UID/daemon.sock)")
	idle := fs.Duration("idle-exit", 0, "exit after this long without a run, e.g. 30m (default: never)")
	maxRuns := fs.Int("max-runs", 64, "runs at once; a launcher that finds all busy runs the command itself")
	quiet := fs.BoolP("quiet", "q", false, "do not report declined connections on stderr")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bashbox daemon [--socket PATH] [--idle-exit DURATION] [--max-runs N]\n\n"+
			"Serves 'bashbox run' to the bashbox launcher, which then starts in well under\n"+
			"a millisecond instead of paying a Go process's start. Runs are the CLI's: the\n"+
			"same flags, budgets, output and exit status. The launcher hands over its\n"+
			"working directory, arguments and descriptors 0-2, and runs the command itself\n"+
			"when no daemon answers. SIGINT or SIGTERM stop accepting and let runs finish;\n"+
			"a second one cancels them.\n\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return usageError(stderr, fs, "%s", flagErrorText(err))
	}
	if fs.NArg() > 0 {
		return usageError(stderr, fs, "unexpected argument %q", fs.Arg(0))
	}
	if *maxRuns < 1 {
		return usageError(stderr, fs, "--max-runs %d: want 1 or more", *maxRuns)
	}
	if *idle < 0 {
		return usageError(stderr, fs, "--idle-exit %v: want 0 (never) or more", *idle)
	}
	path := *socket
	if path == "" {
		path = daemon.DefaultSocket(os.Getenv)
	}
	if !filepath.IsAbs(path) {
		abs, err := filepath.Abs(path)
		if err != nil {
			fmt.Fprintf(stderr, "bashbox daemon: %v\n", err)
			return 1
		}
		path = abs
	}
	stale, err := staleCheck()
	if err != nil {
		fmt.Fprintf(stderr, "bashbox daemon: %v\n", err)
		return 1
	}
	l, err := daemon.Listen(path)
	if err != nil {
		fmt.Fprintf(stderr, "bashbox daemon: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "bashbox daemon: listening on %s\n", path)

	// The first signal stops accepting, the second cancels the runs.
	serveCtx, stopServing := context.WithCancel(context.Background())
	runCtx, stopRuns := context.WithCancel(context.Background())
	defer stopServing()
	defer stopRuns()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		n := 0
		for range sigs {
			if n++; n == 1 {
				stopServing()
			} else {
				stopRuns()
				return
			}
		}
	}()

	cfg := daemon.Config{MaxRuns: *maxRuns, IdleExit: *idle, Stale: stale, RunContext: runCtx}
	if os.Getenv("GOMAXPROCS") == "" {
		// One processor while runs are short and one at a time, all of
		// them otherwise (package daemon, procs.go). An operator who sets
		// GOMAXPROCS gets exactly that.
		cfg.Procs = runtime.GOMAXPROCS(0)
	}
	if !*quiet {
		var mu sync.Mutex
		cfg.Logf = func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(stderr, format+"\n", args...)
		}
	}
	err = daemon.Serve(serveCtx, l, daemonRun(syscall.Umask), cfg)
	switch {
	case errors.Is(err, daemon.ErrStale):
		fmt.Fprintf(stderr, "bashbox daemon: %v; exiting so that launchers start the new one\n", err)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "bashbox daemon: %v\n", err)
		return 1
	}
	return 0
}

// staleCheck returns what tells the daemon its binary was replaced (make
// build, a package upgrade): the launchers' commands must then run the new
// code, not this process's.
func staleCheck() (func() bool, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	was, err := os.Stat(exe)
	if err != nil {
		return nil, err
	}
	return func() bool {
		now, err := os.Stat(exe)
		return err != nil || !os.SameFile(was, now) || !now.ModTime().Equal(was.ModTime()) || now.Size() != was.Size()
	}, nil
}

// daemonRun is the daemon's handler: a `bashbox run` whose flags it can
// honour exactly as the CLI would, else declined so that the launcher runs
// the Go CLI. Declined: anything but run; flags the CLI would refuse or
// answer with help (the CLI prints those); fallback commands, which start
// host processes from the launcher's environment, which the daemon does
// not have; and a launcher whose umask differs from the daemon's, since
// files the run creates on read-write volumes and --changes-out take it
// from the process. umask is syscall.Umask, injected for tests.
func daemonRun(umask func(int) int) daemon.Handler {
	mine := umask(0o022)
	umask(mine)
	return func(req *daemon.Request) func(context.Context) daemon.Outcome {
		if len(req.Args) == 0 || req.Args[0] != "run" || req.Umask != uint32(mine) {
			return nil
		}
		fs, rf := newRunFlags(io.Discard)
		if err := fs.Parse(req.Args[1:]); err != nil {
			return nil
		}
		if err := checkBudgets(fs, parseSize); err != nil {
			return nil
		}
		for _, name := range []string{"fallback", "fallback-env", "fallback-net"} {
			if fs.Changed(name) {
				return nil
			}
		}
		rf.sandbox.dir = req.Dir
		rf.changes.out = hostPath(req.Dir, rf.changes.out)
		return func(ctx context.Context) daemon.Outcome {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			go func() {
				select {
				case <-req.Interrupt:
					cancel() // as SIGINT does to the CLI's run (status 130)
				case <-ctx.Done():
				}
			}()
			var broken pipeState
			stdout := &pipeWriter{f: req.Stdout, state: &broken, cancel: cancel}
			stderr := &pipeWriter{f: req.Stderr, state: &broken, cancel: cancel}
			within := func(bashbox.Limits) (context.Context, func()) { return ctx, func() {} }
			code := runParsed(within, fs, rf, req.Stdin, stdout, stderr)
			if broken.met() {
				return daemon.Outcome{Signal: syscall.SIGPIPE}
			}
			return daemon.Outcome{Status: code}
		}
	}
}

// pipeState records that a write met a pipe with no reader, which kills
// the CLI's process with SIGPIPE; the launcher is told to die of it too.
type pipeState struct{ seen atomic.Bool }

func (p *pipeState) met() bool { return p.seen.Load() }

// pipeWriter writes to one of the launcher's descriptors, and stops the
// run at the first EPIPE, where the CLI's process would have died.
type pipeWriter struct {
	f      *os.File
	state  *pipeState
	cancel func()
}

func (w *pipeWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil && errors.Is(err, syscall.EPIPE) {
		w.state.seen.Store(true)
		w.cancel()
	}
	return n, err
}
