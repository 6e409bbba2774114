// Package fallback runs operator-named host commands (git, gh) for real,
// from inside a sandboxed script, without letting them become a way out:
// each command is resolved once to an absolute host binary; the argv is
// passed as is, never through a shell; the child's environment is the
// operator's allowlist only; its working directory is the host directory of
// the script's cwd, which must lie in a read-write volume; budgets and
// cancellation kill its whole process group. For git, everything that
// would make it run other programs or read config chosen by the script is
// neutralised (see git.go).
package fallback

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/volumes"
)

// Config names the fallback commands and the host environment variables
// their children may see.
type Config struct {
	Commands []string
	// Env lists host variable names passed to the children (only if set on
	// the host). Nothing else of any environment is passed.
	Env []string
	// Logger receives the audit lines; default: JSON on stderr.
	Logger *slog.Logger
	// LookPath resolves command names; default exec.LookPath on the
	// host PATH. Tests replace it.
	LookPath func(string) (string, error)
}

// Runner runs the configured fallback commands.
type Runner struct {
	bins   map[string]string // name -> absolute host path
	env    []string
	log    *slog.Logger
	gitDir string // empty hooks dir and empty global config for git
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
	r := &Runner{bins: map[string]string{}, log: cfg.Logger}
	if r.log == nil {
		r.log = slog.New(slog.NewJSONHandler(os.Stderr, nil))
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
	}
	for _, name := range cfg.Env {
		if v, ok := os.LookupEnv(name); ok {
			r.env = append(r.env, name+"="+v)
		}
	}
	if _, ok := r.bins["git"]; ok {
		dir, err := os.MkdirTemp("", "bashbox-git-")
		if err != nil {
			return nil, err
		}
		os.Mkdir(filepath.Join(dir, "hooks"), 0o500)
		if err := os.WriteFile(filepath.Join(dir, "gitconfig"), nil, 0o400); err != nil {
			return nil, err
		}
		r.gitDir = dir
	}
	r.log.Warn("bashbox: fallback commands are enabled: these run as real host processes", "commands", cfg.Commands, "env", cfg.Env)
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

// Close removes the runner's scratch directory.
func (r *Runner) Close() error {
	if r != nil && r.gitDir != "" {
		return os.RemoveAll(r.gitDir)
	}
	return nil
}

// mounter is what the sandbox filesystem tells about where a path lives.
type mounter interface {
	MountOf(name string) (volumes.Mount, error)
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
	hostDir, err := r.hostDir(c)
	if err != nil {
		fmt.Fprintf(c.Stderr, "bashbox: %s: %v\n", name, err)
		r.audit(name, c, "", 126, start, err)
		return 126, true
	}
	args := c.Args[1:]
	env := append([]string(nil), r.env...)
	switch name {
	case "git":
		args, err = r.gitArgs(args)
		if err == nil {
			env = append(env, r.gitEnv(hostDir)...)
			err = r.checkRepo(ctx, bin, hostDir, env)
		}
	case "gh":
		err = ghCheck(args)
		env = append(env, "GH_PAGER=cat", "GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1")
	}
	if err != nil {
		fmt.Fprintf(c.Stderr, "bashbox: %s: %v\n", name, err)
		r.audit(name, c, hostDir, 126, start, err)
		return 126, true
	}
	status = runChild(ctx, bin, args, env, hostDir, c.Stdin, c.Stdout, c.Stderr)
	r.audit(name, c, hostDir, status, start, nil)
	return status, true
}

// hostDir maps the script's cwd to its host directory, which must be in a
// read-write volume and, symlinks resolved, still inside it.
func (r *Runner) hostDir(c *builtins.Call) (string, error) {
	m, ok := c.FS.(mounter)
	if !ok {
		return "", errors.New("fallback commands need the sandbox filesystem")
	}
	mount, err := m.MountOf(c.Dir)
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
		return "", fmt.Errorf("fallback commands need a read-write volume (%s is not a volume)", c.Dir)
	}
	dir := filepath.Join(mount.HostDir, filepath.FromSlash(mount.Rel))
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("cannot enter %s", c.Dir)
	}
	root, err := filepath.EvalSymlinks(mount.HostDir)
	if err != nil || (real != root && !strings.HasPrefix(real, root+string(filepath.Separator))) {
		return "", fmt.Errorf("%s leaves its volume", c.Dir)
	}
	return real, nil
}

// killGrace is how long a killed child's pipes may stay open before Run
// returns anyway (a grandchild may still hold them).
const killGrace = time.Second

func runChild(ctx context.Context, bin string, args, env []string, dir string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	setProcessGroup(cmd)
	cmd.WaitDelay = killGrace
	err := cmd.Run()
	killGroup(cmd) // no orphans: grandchildren go with the child
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	case errors.Is(err, exec.ErrWaitDelay):
		return 0
	default:
		fmt.Fprintf(stderr, "bashbox: %s: %v\n", filepath.Base(bin), err)
		return 126
	}
}

func (r *Runner) audit(name string, c *builtins.Call, hostDir string, status int, start time.Time, err error) {
	attrs := []any{"command", name, "argv", c.Args, "cwd", c.Dir, "host_cwd", hostDir, "exit_status", status, "duration_ms", time.Since(start).Milliseconds()}
	if err != nil {
		attrs = append(attrs, "refused", err.Error())
	}
	r.log.Info("bashbox fallback", attrs...)
}
