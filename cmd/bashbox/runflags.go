package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/volumes"
)

// This file is what the full binary and the lean front (built with the
// bashbox_front tag, see front.go) share of bashbox run: its flags, how it
// reads the script, and how it runs it and prints the result. It imports
// nothing that is costly to initialise.

// sandboxFlags are the volume, budget, env and fallback flags shared by run
// and serve.
type sandboxFlags struct {
	volumes     []string
	workdir     string
	timeout     time.Duration
	maxOutput   string
	maxCommands int64
	maxLoop     int64
	maxMemory   string
	maxOvlBytes string
	maxOvlFiles int64
	maxWrBytes  string
	maxWrFiles  int64
	maxNesting  int64
	workers     int
	// dir is the directory relative host paths (volumes, the script file)
	// are taken from: the daemon's launcher's; "": the process's own.
	dir         string
	env         []string
	fallback    []string
	fallbackEnv []string
	fallbackNet []string
}

func (f *sandboxFlags) register(fs *pflag.FlagSet) {
	listVar(fs, &f.volumes, "volume", "v", false, volumes.SpecSyntax+"\n(repeatable) binds HOST_DIR at GUEST_PATH (default /work), read-only\n(ro, the default: writes stay in memory for the call) or read-write (rw);\n:GUEST_PATH:ephemeral is an empty in-memory directory")
	fs.StringVarP(&f.workdir, "workdir", "w", "", "starting directory (default: the first volume's guest path)")
	fs.DurationVar(&f.timeout, "timeout", 0, "wall-clock budget with a unit, e.g. 30s or 2m (default 60s)")
	fs.StringVar(&f.maxOutput, "max-output", "", "output budget per stream in bytes, e.g. 10MiB")
	fs.Int64Var(&f.maxCommands, "max-commands", 0, "command budget (default 100000)")
	fs.Int64Var(&f.maxLoop, "max-loop-iterations", 0, "iterations per loop entry (default 1000000)")
	fs.StringVar(&f.maxMemory, "max-memory", "", "memory budget for variables and buffers, e.g. 256MiB")
	fs.StringVar(&f.maxOvlBytes, "max-overlay-bytes", "", "bytes the in-memory layers may hold, e.g. 256MiB")
	fs.Int64Var(&f.maxOvlFiles, "max-overlay-files", 0, "entries the in-memory layers may hold (default 100000)")
	fs.StringVar(&f.maxWrBytes, "max-write-bytes", "", "bytes a call may write to read-write volumes, e.g. 1GiB (default 1GiB)")
	fs.Int64Var(&f.maxWrFiles, "max-write-files", 0, "files and directories a call may create in read-write volumes (default 100000)")
	fs.IntVar(&f.workers, "workers", 0, "goroutines one command may search files or decode input with, e.g. grep -r, jq (default: one per CPU up to 4; 1: sequential)")
	fs.Int64Var(&f.maxNesting, "max-nesting", 0, "functions, eval, source, nested shells, subshells and substitutions inside each other (default 1000)")
	listVar(fs, &f.env, "env", "", false, "NAME=VALUE added to the sandbox environment (repeatable)")
	listVar(fs, &f.fallback, "fallback", "", true, "host commands allowed to run for real, e.g. git,gh")
	listVar(fs, &f.fallbackEnv, "fallback-env", "", true, "host env vars passed to fallback children only")
	listVar(fs, &f.fallbackNet, "fallback-net", "", true, "fallback commands given the host network, e.g. git (default: none)")
}

// runFlags are bashbox run's flags.
type runFlags struct {
	sandbox sandboxFlags
	script  *string
	asJSON  *bool
	changes changesFlags
}

// newRunFlags makes run's flag set; errors and help go to stderr.
func newRunFlags(stderr io.Writer) (*pflag.FlagSet, *runFlags) {
	fs := pflag.NewFlagSet("bashbox run", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SetInterspersed(false)
	rf := &runFlags{}
	rf.sandbox.register(fs)
	rf.script = fs.StringP("command", "c", "", "the script to run")
	rf.asJSON = fs.Bool("json", false, "print one JSON result object instead of the raw streams")
	rf.changes.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bashbox run [flags] [SCRIPT_FILE | -c 'SCRIPT'] [ARGS...]\n(the script is read from stdin when neither is given)\n\n%s\n%s", volumeHelp, fs.FlagUsages())
	}
	return fs, rf
}

// readScript takes the script from -c, the file operand (the operator's
// input, read from the host) or stdin, which the script then does not
// get. fromStdin says the script came (or failed to come) from stdin.
func readScript(fs *pflag.FlagSet, rf *runFlags, stdin io.Reader) (req bashbox.Request, fromStdin bool, err error) {
	req.Args = fs.Args()
	switch {
	case fs.Changed("command"):
		req.Script = *rf.script
	case fs.NArg() > 0:
		data, err := os.ReadFile(hostPath(rf.sandbox.dir, fs.Arg(0)))
		if err != nil {
			return req, false, fmt.Errorf("%s: %s", fs.Arg(0), errText(err))
		}
		req.Script, req.Name, req.Args = string(data), fs.Arg(0), fs.Args()[1:]
	default:
		data, err := io.ReadAll(stdin)
		req.Script = string(data)
		return req, true, err
	}
	req.Stdin = stdin
	return req, false, nil
}

// runBox runs req in box under ctx, prints the result as bashbox run does
// and returns the exit status.
func runBox(ctx context.Context, fs *pflag.FlagSet, box *bashbox.Box, req bashbox.Request, rf *runFlags, stdout, stderr io.Writer) int {
	asJSON := *rf.asJSON
	if !asJSON {
		req.Stdout, req.Stderr, req.DiscardCapture = stdout, stderr, true
	}
	res, err := box.Run(ctx, req)
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	code := rf.changes.deliver(res, stderr)
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.Encode(res)
	}
	if code >= 0 {
		return code
	}
	return res.ExitCode
}

// cliContext is the context of a run that is the whole process: SIGINT
// stops it (see interruptible), and the Go heap's soft limit follows the
// run's budgets. The daemon runs many at once and sets neither.
func cliContext(limits bashbox.Limits) (context.Context, func()) {
	restore := func() {}
	if os.Getenv("GOMEMLIMIT") == "" {
		old := debug.SetMemoryLimit(heapLimit(limits))
		restore = func() { debug.SetMemoryLimit(old) }
	}
	ctx, stop := interruptible(interruptAfter)
	return ctx, func() { stop(); restore() }
}

// interruptAfter is how long a run lasts before SIGINT stops it gracefully
// (see interruptible).
const interruptAfter = 50 * time.Millisecond

// interruptible returns a context that SIGINT cancels from delay on, and
// the func that releases it. Catching a signal costs os/signal an OS
// thread of its own and two goroutines, a tenth of the lean front's
// start-up, for runs that mostly end within a few milliseconds; so it is
// set up only once the run has lasted delay. A SIGINT before then takes
// the default action (the process dies of it, as a shell's does); after
// it the run is cancelled and reports status 130 with its result.
func interruptible(delay time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	var (
		mu       sync.Mutex
		released bool
		unnotify context.CancelFunc
	)
	timer := time.AfterFunc(delay, func() {
		mu.Lock()
		defer mu.Unlock()
		if released {
			return
		}
		sig, stop := signal.NotifyContext(ctx, os.Interrupt)
		unnotify = stop
		context.AfterFunc(sig, cancel)
	})
	return ctx, func() {
		timer.Stop()
		mu.Lock()
		released = true
		if unnotify != nil {
			unnotify()
		}
		mu.Unlock()
		cancel()
	}
}

// heapLimit is the Go heap's soft limit for one run: the memory budget,
// the output buffers and room for the process itself. The budget bounds
// what the script holds; without the limit the collector lets garbage
// grow to as much again before it runs, so a script stopped at a 256 MiB
// budget could leave the process at twice that. A run that also fills
// the in-memory overlay goes past the limit; the collector then works
// harder (at most half the CPU), the run goes on.
func heapLimit(l bashbox.Limits) int64 {
	mem, out := l.MaxMemoryBytes, l.MaxOutputBytes
	if mem == 0 {
		mem = bashbox.DefaultLimits.MaxMemoryBytes
	}
	if out == 0 {
		out = bashbox.DefaultLimits.MaxOutputBytes
	}
	return mem + 2*out + 64<<20
}

// volumeHelp explains -v in the help of run and serve.
const volumeHelp = `Volumes (-v, repeatable):
  HOST_DIR                    HOST_DIR at /work, read-only
  HOST_DIR:GUEST_PATH         HOST_DIR at GUEST_PATH, read-only
  HOST_DIR[:GUEST_PATH]:ro    read-only: the host is never modified; writes stay
                              in memory and vanish after the call
  HOST_DIR[:GUEST_PATH]:rw    read-write: writes go through to HOST_DIR
  :GUEST_PATH:ephemeral       an empty in-memory directory at GUEST_PATH
  A spec that could mean two things (a host directory with :ephemeral, a
  relative guest path) is refused. Without -v, /work is ephemeral.
`

// hostPath is p, taken relative to dir when it is relative and dir is set.
func hostPath(dir, p string) string {
	if dir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// errText is an error's text as GNU tools print it ("No such file or
// directory"), without Go's "open NAME:" prefix.
func errText(err error) string { return builtins.ErrText(err) }

// baseConfig is the part of a box configuration that both the full CLI's
// run and the lean front take from the flags: volumes, working directory
// and the count and time budgets.
func (f *sandboxFlags) baseConfig() (bashbox.Config, error) {
	var cfg bashbox.Config
	for _, spec := range f.volumes {
		v, err := volumes.Parse(spec)
		if err != nil {
			return cfg, err
		}
		cfg.Volumes = append(cfg.Volumes, v)
	}
	for i := range cfg.Volumes {
		cfg.Volumes[i].Base = f.dir
	}
	cfg.Workdir = f.workdir
	cfg.Limits.Timeout = f.timeout
	cfg.Limits.MaxCommands = f.maxCommands
	cfg.Limits.MaxLoopIterations = f.maxLoop
	cfg.Limits.MaxOverlayFiles = f.maxOvlFiles
	cfg.Limits.MaxWriteFiles = f.maxWrFiles
	cfg.Limits.MaxNesting = f.maxNesting
	cfg.Workers = f.workers
	return cfg, nil
}
