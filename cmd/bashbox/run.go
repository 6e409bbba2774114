package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/config"
	"github.com/bashbox/bashbox/volumes"
)

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
	env         []string
	fallback    []string
	fallbackEnv []string
	fallbackNet []string
}

func (f *sandboxFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVarP(&f.volumes, "volume", "v", nil, volumes.SpecSyntax+"\n(repeatable) binds HOST_DIR at GUEST_PATH (default /work), read-only\n(ro, the default: writes stay in memory for the call) or read-write (rw);\n:GUEST_PATH:ephemeral is an empty in-memory directory")
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
	fs.Int64Var(&f.maxNesting, "max-nesting", 0, "functions, eval, source, nested shells, subshells and substitutions inside each other (default 1000)")
	fs.StringArrayVar(&f.env, "env", nil, "NAME=VALUE added to the sandbox environment (repeatable)")
	fs.StringSliceVar(&f.fallback, "fallback", nil, "host commands allowed to run for real, e.g. git,gh")
	fs.StringSliceVar(&f.fallbackEnv, "fallback-env", nil, "host env vars passed to fallback children only")
	fs.StringSliceVar(&f.fallbackNet, "fallback-net", nil, "fallback commands given the host network, e.g. git (default: none)")
}

// config turns the flags into a box configuration.
func (f *sandboxFlags) config() (bashbox.Config, error) {
	var cfg bashbox.Config
	for _, spec := range f.volumes {
		v, err := volumes.Parse(spec)
		if err != nil {
			return cfg, err
		}
		cfg.Volumes = append(cfg.Volumes, v)
	}
	cfg.Workdir = f.workdir
	cfg.Limits.Timeout = f.timeout
	cfg.Limits.MaxCommands = f.maxCommands
	cfg.Limits.MaxLoopIterations = f.maxLoop
	cfg.Limits.MaxOverlayFiles = f.maxOvlFiles
	cfg.Limits.MaxWriteFiles = f.maxWrFiles
	cfg.Limits.MaxNesting = f.maxNesting
	for _, s := range []struct {
		flag, val string
		dst       *int64
	}{
		{"--max-output", f.maxOutput, &cfg.Limits.MaxOutputBytes},
		{"--max-memory", f.maxMemory, &cfg.Limits.MaxMemoryBytes},
		{"--max-overlay-bytes", f.maxOvlBytes, &cfg.Limits.MaxOverlayBytes},
		{"--max-write-bytes", f.maxWrBytes, &cfg.Limits.MaxWriteBytes},
	} {
		if s.val == "" {
			continue
		}
		n, err := parseSize(s.val)
		if err != nil {
			return cfg, fmt.Errorf("%s: %v", s.flag, err)
		}
		*s.dst = n
	}
	for _, kv := range f.env {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
			return cfg, fmt.Errorf("--env %q: want NAME=VALUE", kv)
		}
	}
	cfg.Env = f.env
	fb, err := fallbackConfig(f.fallback, f.fallbackNet, f.fallbackEnv)
	if err != nil {
		return cfg, err
	}
	cfg.Fallback = fb
	return cfg, nil
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

// errText is an error's text as GNU tools print it ("No such file or
// directory"), without Go's "open NAME:" prefix.
func errText(err error) string { return builtins.ErrText(err) }

// parseSize reads 1024, 10k, 10KiB, 5M, 5MB, 1GiB (config's syntax).
func parseSize(s string) (int64, error) { return config.ParseSize(s) }

// runHeadroom is what bashbox run lets the process hold beyond the
// call's memory budget before the garbage collector works harder.
const runHeadroom = 32 << 20

func runCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bashbox run", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SetInterspersed(false)
	var sf sandboxFlags
	sf.register(fs)
	script := fs.StringP("command", "c", "", "the script to run")
	asJSON := fs.Bool("json", false, "print one JSON result object instead of the raw streams")
	var cf changesFlags
	cf.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bashbox run [flags] [SCRIPT_FILE | -c 'SCRIPT'] [ARGS...]\n(the script is read from stdin when neither is given)\n\n%s\n%s", volumeHelp, fs.FlagUsages())
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	cfg, err := sf.config()
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	changes, err := cf.request(*asJSON)
	if err != nil {
		fmt.Fprintf(stderr, "bashbox: %v\n", err)
		return 2
	}
	req := bashbox.Request{Args: fs.Args(), Changes: changes}
	switch {
	case fs.Changed("command"):
		req.Script = *script
	case fs.NArg() > 0:
		// The script file is the operator's input, read from the host.
		data, err := os.ReadFile(fs.Arg(0))
		if err != nil {
			return usageError(stderr, fs, "%s: %s", fs.Arg(0), errText(err))
		}
		req.Script, req.Name, req.Args = string(data), fs.Arg(0), fs.Args()[1:]
	default:
		data, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "bashbox: reading the script from stdin: %s\n", errText(err))
			return exitUsage
		}
		req.Script = string(data)
		stdin = nil
	}
	if stdin != nil && fs.Changed("command") || fs.NArg() > 0 {
		req.Stdin = stdin
	}
	box, err := bashbox.New(cfg)
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	defer box.Close()
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(heapLimit(cfg.Limits)))
	}
	if !*asJSON {
		req.Stdout, req.Stderr, req.DiscardCapture = stdout, stderr, true
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := box.Run(ctx, req)
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	code := cf.deliver(res, stderr)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.Encode(res)
	}
	if code >= 0 {
		return code
	}
	return res.ExitCode
}
