// Package fallback runs operator-named host commands (git, gh) for real,
// from inside a sandboxed script, without letting them become a way out.
//
// The boundary is the operating system's: every fallback process runs in
// the strongest hostsandbox backend (bubblewrap with Landlock and the
// strict seccomp filter on Linux), seeing only the call's volumes (the
// read-write ones writable, at their host paths), the system directories
// it needs read-only, and a private /tmp and HOME; in its own PID
// namespace, without network unless the operator enables it per command,
// under the call's time budget and a memory and CPU rlimit, its writes to
// the read-write volumes counted in the call's write quota (writes.go). Where no
// backend works, fallbacks are refused (fail closed) unless the operator
// explicitly opted out of OS isolation.
//
// The argument and repository policy (git.go, paths.go) is a second layer
// and the audit trail: each command is resolved once to an absolute host
// binary; the argv is passed as is, never through a shell; the child's
// environment is the operator's allowlist only; its working directory is
// the host directory of the script's cwd, which must lie in a read-write
// volume; options that name files outside the volumes, or make git run
// other programs or read config chosen by the script, are refused.
package fallback

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/hostsandbox"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// Config names the fallback commands and the host environment variables
// their children may see.
type Config struct {
	Commands []string
	// Network names the commands that get the host network (git for
	// fetch and push, gh); all others have none.
	Network []string
	// Env lists host variable names passed to the children (only if set on
	// the host). Nothing else of any environment is passed.
	Env []string
	// Backend is the OS sandbox the children run in. Nil means
	// hostsandbox.Select(hostsandbox.Policy{}): the strongest this machine
	// offers, failing closed when there is none. The no-sandbox backend
	// (Select with AllowNoSandbox) runs them unconfined, with a warning.
	Backend hostsandbox.Backend
	// MaxMemoryBytes is each child's address-space rlimit (default 4 GiB).
	MaxMemoryBytes uint64
	// Logger receives the audit lines; default: JSON on stderr.
	Logger *slog.Logger
	// LookPath resolves command names; default exec.LookPath on the
	// host PATH. Tests replace it.
	LookPath func(string) (string, error)
	// LookupEnv reads the host variables named in Env; default
	// os.LookupEnv.
	LookupEnv func(string) (string, bool)
}

// DefaultMaxMemoryBytes is the address-space limit of a fallback process.
const DefaultMaxMemoryBytes = 4 << 30

// Runner runs the configured fallback commands.
type Runner struct {
	bins     map[string]string // name -> absolute host path
	network  map[string]bool
	env      []string
	log      *slog.Logger
	backend  hostsandbox.Backend
	maxMem   uint64
	noPolicy bool // tests only (export_test.go): the OS sandbox alone
	// readOnly are host paths the binaries need besides the system
	// skeleton (a binary or git exec path outside /usr), bound read-only.
	readOnly []string
}

// New resolves every command once. A name that is not found is an error.
func New(cfg Config) (*Runner, error) {
	if len(cfg.Commands) == 0 {
		return nil, nil
	}
	look := cfg.LookPath
	if look == nil {
		look = exec.LookPath
	}
	r := &Runner{bins: map[string]string{}, network: map[string]bool{}, log: cfg.Logger, backend: cfg.Backend,
		maxMem: cfg.MaxMemoryBytes}
	if r.log == nil {
		r.log = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	if r.maxMem == 0 {
		r.maxMem = DefaultMaxMemoryBytes
	}
	for _, name := range cfg.Commands {
		if name == "" || strings.ContainsAny(name, "/\\ ") {
			return nil, fmt.Errorf("fallback command %q: want a plain command name", name)
		}
		if name == "bash" || name == "sh" || name == "env" || name == "xargs" || name == "sudo" {
			return nil, fmt.Errorf("fallback command %q would run arbitrary programs: refused", name)
		}
		p, err := look(name)
		if err != nil {
			return nil, fmt.Errorf("fallback command %q: not found on the host PATH", name)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		r.bins[name] = abs
		r.readOnly = append(r.readOnly, outsideSkeleton(abs)...)
	}
	for _, name := range cfg.Network {
		if _, ok := r.bins[name]; !ok {
			return nil, fmt.Errorf("fallback network for %q: not a fallback command", name)
		}
		r.network[name] = true
	}
	lookup := cfg.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	for _, name := range cfg.Env {
		if v, ok := lookup(name); ok {
			r.env = append(r.env, name+"="+v)
		}
	}
	if bin, ok := r.bins["git"]; ok {
		r.readOnly = append(r.readOnly, gitExecPath(bin)...)
	}
	if r.backend == nil {
		r.backend = hostsandbox.Select(hostsandbox.Policy{})
	}
	switch missing, unavailable := hostsandbox.Unavailable(r.backend); {
	case unavailable:
		r.log.Error("bashbox: fallback commands will be refused: no OS sandbox ("+missing+"); see bashbox doctor", "commands", cfg.Commands)
	case !hostsandbox.Confining(r.backend):
		r.log.Warn("bashbox: fallback commands run with NO OS sandbox ("+hostsandbox.EnvAllowNoSandbox+"): only their arguments are checked; they can read and write whatever this process can", "commands", cfg.Commands)
	default:
		r.log.Warn("bashbox: fallback commands are enabled: these run as real host processes, confined by "+r.backend.Name(), "commands", cfg.Commands, "network", cfg.Network, "env", cfg.Env)
	}
	return r, nil
}

// Commands lists the configured names.
func (r *Runner) Commands() []string {
	var names []string
	for n := range r.bins {
		names = append(names, n)
	}
	return names
}

// Backend names the OS sandbox the commands run in.
func (r *Runner) Backend() string { return r.backend.Name() }

// Close releases the runner. Nothing of it lives on the host between
// calls, so there is nothing to remove; it stays for API stability.
func (r *Runner) Close() error { return nil }

// mounter is what the sandbox filesystem tells about where a path lives.
type mounter interface {
	MountOf(name string) (volumes.Mount, error)
	Mounts() []volumes.Mount
}

// Run runs c if it names a fallback command; handled is false otherwise.
func (r *Runner) Run(ctx context.Context, c *builtins.Call) (status int, handled bool) {
	if r == nil {
		return 0, false
	}
	name := c.Args[0]
	bin, ok := r.bins[name]
	if !ok {
		return 0, false
	}
	start := time.Now()
	refuse := func(hostDir string, err error) (int, bool) {
		fmt.Fprintf(c.Stderr, "bashbox: %s: %v\n", name, err)
		r.audit(name, c, hostDir, 126, start, err)
		return 126, true
	}
	if missing, unavailable := hostsandbox.Unavailable(r.backend); unavailable {
		return refuse("", fmt.Errorf("no OS sandbox for fallback commands (%s); see bashbox doctor", missing))
	}
	m, ok := c.FS.(mounter)
	if !ok {
		return refuse("", errors.New("fallback commands need the sandbox filesystem"))
	}
	hostDir, err := hostDir(m, c.Dir)
	if err != nil {
		return refuse("", err)
	}
	sb := r.newSandbox(ctx, name, m, hostDir)
	args := c.Args[1:]
	if !r.noPolicy {
		args, err = checkPaths(name, args, pathResolver{m: m, dir: c.Dir})
		if err != nil {
			return refuse(hostDir, err)
		}
	}
	switch name {
	case "git":
		args, err = r.gitArgs(args, sb)
		if err == nil && !r.noPolicy {
			err = checkRepoConfig(sb.volumeRoot(), hostDir)
		}
	case "gh":
		if !r.noPolicy {
			err = ghCheck(args)
		}
		sb.env = append(sb.env, [2]string{"GH_PAGER", "cat"}, [2]string{"GH_PROMPT_DISABLED", "1"}, [2]string{"GH_NO_UPDATE_NOTIFIER", "1"})
	}
	if err != nil {
		return refuse(hostDir, err)
	}
	meter, err := newWriteMeter(ctx, writeQuotaOf(c.FS), sb.manifest.FSWriteAllow)
	if err != nil {
		return refuse(hostDir, err)
	}
	sb.manifest.MaxFileBytes = meter.fileSizeLimit()
	runCtx, stop := context.WithCancel(ctx)
	endWatch := meter.watch(runCtx, stop)
	status = sb.run(runCtx, append([]string{bin}, args...), c)
	endWatch()
	stop()
	if msg := meter.charge(ctx, name); msg != "" {
		fmt.Fprintln(c.Stderr, msg)
		status = max(status, 1)
	}
	r.audit(name, c, hostDir, status, start, nil)
	return status, true
}

// writeQuotaOf is the call's write quota, when its filesystem meters
// writes to read-write volumes.
func writeQuotaOf(fsys any) *overlayfs.WriteQuota {
	if q, ok := fsys.(interface{ WriteQuota() *overlayfs.WriteQuota }); ok {
		return q.WriteQuota()
	}
	return nil
}

// hostDir maps the script's cwd to its host directory, which must be in a
// read-write volume and, symlinks resolved, still inside it.
func hostDir(m mounter, dir string) (string, error) {
	mount, err := m.MountOf(dir)
	if err != nil {
		return "", err
	}
	switch mount.Mode {
	case volumes.ReadWrite:
	case volumes.ReadOnly:
		return "", fmt.Errorf("fallback commands need a read-write volume (%s is read-only)", mount.GuestPath)
	case volumes.Ephemeral:
		return "", fmt.Errorf("fallback commands need a read-write volume (%s is ephemeral)", mount.GuestPath)
	default:
		return "", fmt.Errorf("fallback commands need a read-write volume (%s is not a volume)", dir)
	}
	host := filepath.Join(mount.HostDir, filepath.FromSlash(mount.Rel))
	real, err := filepath.EvalSymlinks(host)
	if err != nil {
		return "", fmt.Errorf("cannot enter %s", dir)
	}
	root, err := filepath.EvalSymlinks(mount.HostDir)
	if err != nil || !within(real, root) {
		return "", fmt.Errorf("%s leaves its volume", dir)
	}
	return real, nil
}

func within(p, dir string) bool {
	p, dir = filepath.Clean(p), filepath.Clean(dir)
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

func (r *Runner) audit(name string, c *builtins.Call, hostDir string, status int, start time.Time, err error) {
	attrs := []any{"command", name, "argv", c.Args, "cwd", c.Dir, "host_cwd", hostDir, "exit_status", status,
		"duration_ms", time.Since(start).Milliseconds(), "network", r.network[name], "sandbox", r.backend.Name()}
	if err != nil {
		attrs = append(attrs, "refused", err.Error())
	}
	r.log.Info("bashbox fallback", attrs...)
}
