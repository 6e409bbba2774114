// Package bashtool is the classic Bash tool on top of the host sandbox:
// commands run as real host processes inside the strongest OS sandbox
// hostsandbox offers, with a scrubbed environment, the network closed by
// default, and a denylist that refuses credential-exfiltration one-liners
// and footguns before anything starts.
package bashtool

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bashbox/bashbox/hostsandbox"
)

// Timeouts of foreground commands, in seconds.
const (
	DefaultTimeoutSecs = 120
	MaxTimeoutSecs     = 600
)

// Input is one call of the Bash tool.
type Input struct {
	Command string `json:"command"`
	// Description says in a few words what the command does; it is kept
	// for the caller's records only.
	Description string `json:"description,omitempty"`
	// Timeout in seconds for a foreground command: default 120, clamped to
	// 600. Ignored in the background.
	Timeout float64 `json:"timeout,omitempty"`
	// RunInBackground returns a shell id at once; poll it with Output.
	RunInBackground bool `json:"run_in_background,omitempty"`
}

// Result is what a call returns.
type Result struct {
	// Output is the text for the model: the merged output (capped), then
	// the timeout and exit lines and the network hint when they apply.
	Output   string `json:"output"`
	ExitCode int    `json:"exit_code"`
	TimedOut bool   `json:"timed_out,omitempty"`
	// Truncated is set when Output leaves part of the output out;
	// OutputFile then has all of it.
	Truncated  bool   `json:"truncated,omitempty"`
	OutputFile string `json:"output_file,omitempty"`
	// ShellID names a background shell.
	ShellID    string `json:"shell_id,omitempty"`
	Backend    string `json:"backend"`
	DurationMS int64  `json:"duration_ms"`
}

// Config sets up a Tool. The zero value runs in the current directory,
// writable, on the backend hostsandbox.Select picks.
type Config struct {
	// WorkDir is the workspace root: commands start there and may write
	// there. Default: the current directory.
	WorkDir string
	// ReadPaths and WritePaths are more absolute paths the commands may
	// read, or read and write.
	ReadPaths  []string
	WritePaths []string
	// EnvAllow extends (never shrinks) the default environment allowlist
	// with host variable names; NAME* entries are prefixes. Secret-shaped
	// names (*_TOKEN, *_API_KEY, ...) pass only when listed exactly.
	EnvAllow []string
	// Network: empty means deny. (The bashbox command sets inherit when
	// BASHBOX_BASH_ALLOW_NETWORK is 1 or true; see NetworkFromEnv.)
	Network  hostsandbox.NetworkMode
	Syscalls hostsandbox.SyscallPolicy
	// Resource limits per command; zero means none.
	MaxMemoryBytes uint64
	MaxCPUSecs     uint64
	// Backend defaults to hostsandbox.Select(Policy).
	Backend hostsandbox.Backend
	// Policy chooses the backend when Backend is nil.
	Policy hostsandbox.Policy
	// HostEnv is where allowed variables come from; default os.Environ(),
	// read at each call.
	HostEnv []string
	// OutputDir keeps full outputs; default a private temporary directory
	// removed by Close.
	OutputDir string
	// Shell runs the command as Shell -c COMMAND; default /bin/bash.
	Shell string
	// MaxBackground bounds the background shells running at once
	// (default 8).
	MaxBackground int
}

// Tool runs Bash tool calls and keeps the background shells. It is safe
// for concurrent use.
type Tool struct {
	cfg     Config
	backend hostsandbox.Backend
	network hostsandbox.NetworkMode
	outDir  string
	ownDir  bool

	mu     sync.Mutex
	shells map[string]*shell
	seq    int
	closed bool
}

// New checks cfg and prepares a Tool. It does not start anything.
func New(cfg Config) (*Tool, error) {
	if cfg.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("bash tool: working directory: %w", err)
		}
		cfg.WorkDir = wd
	}
	if !filepath.IsAbs(cfg.WorkDir) {
		return nil, fmt.Errorf("bash tool: workspace %q is not an absolute path", cfg.WorkDir)
	}
	cfg.WorkDir = filepath.Clean(cfg.WorkDir)
	if fi, err := os.Stat(cfg.WorkDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("bash tool: workspace %s is not a directory", cfg.WorkDir)
	}
	for _, p := range append(append([]string{}, cfg.ReadPaths...), cfg.WritePaths...) {
		if !filepath.IsAbs(p) {
			return nil, fmt.Errorf("bash tool: %q is not an absolute path", p)
		}
	}
	t := &Tool{cfg: cfg, backend: cfg.Backend, network: cfg.Network, shells: map[string]*shell{}}
	if t.backend == nil {
		t.backend = hostsandbox.Select(cfg.Policy)
	}
	if t.network == "" {
		t.network = hostsandbox.NetworkDeny
	}
	if t.cfg.Shell == "" {
		t.cfg.Shell = defaultShell()
	}
	if t.cfg.MaxBackground <= 0 {
		t.cfg.MaxBackground = 8
	}
	if cfg.OutputDir != "" {
		if err := os.MkdirAll(cfg.OutputDir, 0o700); err != nil {
			return nil, fmt.Errorf("bash tool: output directory: %w", err)
		}
		t.outDir = cfg.OutputDir
	} else {
		dir, err := os.MkdirTemp("", "bashbox-bash-")
		if err != nil {
			return nil, fmt.Errorf("bash tool: output directory: %w", err)
		}
		t.outDir, t.ownDir = dir, true
	}
	return t, nil
}

func defaultShell() string {
	if runtime.GOOS == "windows" {
		return "bash"
	}
	if _, err := os.Stat("/bin/bash"); err == nil {
		return "/bin/bash"
	}
	return "/bin/sh"
}

// BackendName says which sandbox backend runs the commands.
func (t *Tool) BackendName() string { return t.backend.Name() }

// Network says whether commands get the network (inherit) or not (deny).
func (t *Tool) Network() hostsandbox.NetworkMode { return t.network }

// manifest describes the sandbox of one command.
func (t *Tool) manifest(timeout time.Duration) *hostsandbox.Manifest {
	hostEnv := t.cfg.HostEnv
	if hostEnv == nil {
		hostEnv = os.Environ()
	}
	env := BuildEnv(hostEnv, t.cfg.EnvAllow)
	writable := append([]string{t.cfg.WorkDir}, t.cfg.WritePaths...)
	env = fixSandboxEnv(env, append(append([]string{}, writable...), t.cfg.ReadPaths...))
	return &hostsandbox.Manifest{
		FSReadAllow:    t.cfg.ReadPaths,
		FSWriteAllow:   writable,
		Network:        hostsandbox.NetworkPolicy{Mode: t.network},
		Syscalls:       t.cfg.Syscalls,
		Timeout:        timeout,
		MaxMemoryBytes: t.cfg.MaxMemoryBytes,
		MaxCPUSecs:     t.cfg.MaxCPUSecs,
		Env:            env,
	}
}

// fixSandboxEnv makes sure PATH is set and TMPDIR points somewhere the
// command can write (the sandbox's private /tmp unless it is shared).
func fixSandboxEnv(env [][2]string, shared []string) [][2]string {
	hasPath := false
	for i, kv := range env {
		switch kv[0] {
		case "PATH":
			hasPath = true
		case "TMPDIR":
			if runtime.GOOS != "windows" && !under(kv[1], append([]string{"/tmp"}, shared...)) {
				env[i][1] = "/tmp"
			}
		}
	}
	if !hasPath && runtime.GOOS != "windows" {
		env = append(env, [2]string{"PATH", "/usr/local/bin:/usr/bin:/bin"})
	}
	return env
}

func under(p string, roots []string) bool {
	p = filepath.Clean(p)
	for _, r := range roots {
		r = filepath.Clean(r)
		if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// Run executes one call. A refused command returns a *RefusedError; a
// sandbox that cannot run (failing closed) returns its error. A command
// that runs and fails is a Result with a non-zero ExitCode, not an error.
func (t *Tool) Run(ctx context.Context, in Input) (Result, error) {
	if strings.TrimSpace(in.Command) == "" {
		return Result{}, errors.New("bash tool: command is required")
	}
	if err := CheckCommand(in.Command); err != nil {
		return Result{}, err
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return Result{}, errors.New("bash tool: closed")
	}
	t.seq++
	seq := t.seq
	t.mu.Unlock()
	if in.RunInBackground {
		return t.startBackground(in)
	}
	return t.runForeground(ctx, in, seq)
}

func clampTimeout(secs float64) time.Duration {
	if secs <= 0 {
		secs = DefaultTimeoutSecs
	}
	if secs > MaxTimeoutSecs {
		secs = MaxTimeoutSecs
	}
	return time.Duration(secs * float64(time.Second))
}

func (t *Tool) runForeground(ctx context.Context, in Input, seq int) (Result, error) {
	timeout := clampTimeout(in.Timeout)
	m := t.manifest(timeout)
	file, err := os.OpenFile(filepath.Join(t.outDir, fmt.Sprintf("bash-%04d-%s.log", seq, newID()[:8])), os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		return Result{}, fmt.Errorf("bash tool: output file: %w", err)
	}
	defer file.Close()
	capture := newHeadTail(ForegroundOutputLimit, file)
	oc, err := hostsandbox.Run(ctx, t.backend, m, hostsandbox.Request{
		Args: []string{t.cfg.Shell, "-c", in.Command}, Dir: t.cfg.WorkDir, Stdout: capture, Stderr: capture,
	})
	if err != nil {
		os.Remove(file.Name())
		return Result{}, err
	}
	text, truncated := capture.render(file.Name())
	res := Result{ExitCode: oc.ExitCode, TimedOut: oc.TimedOut, Truncated: truncated, OutputFile: file.Name(),
		Backend: t.backend.Name(), DurationMS: oc.Duration.Milliseconds()}
	var b strings.Builder
	b.WriteString(text)
	line := func(s string) {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		b.WriteString(s + "\n")
	}
	if oc.TimedOut {
		line("bash: timed out after " + strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64) + "s")
	}
	if oc.ExitCode != 0 {
		line("exit: " + strconv.Itoa(oc.ExitCode))
		if t.network != hostsandbox.NetworkInherit && looksNetworkDependent(in.Command) {
			line(NetworkHint)
		}
	}
	res.Output = b.String()
	return res, nil
}

// newID returns a random UUID-shaped id.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Close kills every background shell, waits for them, and removes the
// private output directory. The Tool refuses calls afterwards.
func (t *Tool) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	shells := make([]*shell, 0, len(t.shells))
	for _, s := range t.shells {
		shells = append(shells, s)
	}
	t.mu.Unlock()
	for _, s := range shells {
		s.kill()
	}
	for _, s := range shells {
		<-s.done
	}
	if t.ownDir {
		return os.RemoveAll(t.outDir)
	}
	return nil
}
