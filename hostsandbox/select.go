package hostsandbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Environment variables that cmd/bashbox maps onto Policy. The library
// never reads them itself: a program embedding it decides.
const (
	// EnvSandbox forces a choice: "docker", or "none" (which still needs
	// EnvAllowNoSandbox). Unset means the platform's strongest backend.
	EnvSandbox = "BASHBOX_SANDBOX"
	// EnvAllowNoSandbox, set to 1 or true, permits running with no OS
	// sandbox when none is available.
	EnvAllowNoSandbox = "BASHBOX_ALLOW_NO_SANDBOX"
)

// Policy is the operator's say in which backend Select returns.
type Policy struct {
	// Sandbox forces a choice: "docker", or "none" (which still needs
	// AllowNoSandbox). Empty means the platform's strongest backend.
	Sandbox string
	// AllowNoSandbox permits running with no OS sandbox when none is
	// available (or with Sandbox "none").
	AllowNoSandbox bool
	// DockerHost is the Docker engine endpoint (unix:///path or
	// tcp://host:port); empty means the default socket.
	DockerHost string
}

// PolicyFromEnv reads the policy the way the bashbox command does:
// BASHBOX_SANDBOX, BASHBOX_ALLOW_NO_SANDBOX (1 or true) and DOCKER_HOST,
// looked up with getenv (os.Getenv in main).
func PolicyFromEnv(getenv func(string) string) Policy {
	return Policy{
		Sandbox:        getenv(EnvSandbox),
		AllowNoSandbox: truthy(getenv(EnvAllowNoSandbox)),
		DockerHost:     getenv(EnvDockerHost),
	}
}

const fixHint = "Install bubblewrap (Linux: apt-get install bubblewrap), set " + EnvSandbox +
	"=docker with a running Docker engine, or explicitly accept running with NO isolation by setting " +
	EnvAllowNoSandbox + "=1."

// Select returns the strongest backend this machine offers under p, in
// this order: Docker when p.Sandbox is "docker" (fail closed when its
// engine is not reachable); bubblewrap on Linux; sandbox-exec on macOS
// (experimental); AppContainer on Windows (experimental); no sandbox when
// p.AllowNoSandbox; otherwise a backend that refuses every command with a
// message saying how to fix it. Sandbox "none" alone still fails closed.
func Select(p Policy) Backend {
	b, _ := selectBackend(p)
	return b
}

// selectBackend also returns why the stronger options were passed over,
// for doctor.
func selectBackend(p Policy) (Backend, []string) {
	var notes []string
	choice := strings.ToLower(strings.TrimSpace(p.Sandbox))
	allowNone := p.AllowNoSandbox
	switch choice {
	case "docker":
		d, err := connectDocker(p.DockerHost)
		if err != nil {
			return failClosed{reason: fmt.Sprintf("%s=docker but the Docker engine is not reachable (%v); start Docker or unset %s.", EnvSandbox, err, EnvSandbox),
				missing: "the Docker engine is not reachable"}, notes
		}
		return d, notes
	case "none":
		if allowNone {
			return newNoSandbox(), notes
		}
		return failClosed{reason: EnvSandbox + "=none alone does not disable isolation; also set " + EnvAllowNoSandbox + "=1 to run with NO sandbox.",
			missing: EnvSandbox + "=none without " + EnvAllowNoSandbox}, notes
	case "":
	default:
		return failClosed{reason: fmt.Sprintf("unknown %s value %q (want docker or none, or leave it unset).", EnvSandbox, choice),
			missing: fmt.Sprintf("unknown %s value %q", EnvSandbox, choice)}, notes
	}
	var missing string
	switch runtime.GOOS {
	case "linux":
		b, err := newBubblewrapFromPath()
		if err == nil {
			return b, notes
		}
		notes = append(notes, "bubblewrap: "+err.Error())
		missing = "bubblewrap not usable"
		if errors.Is(err, errBwrapNotFound) {
			missing = "bubblewrap not found"
		}
	case "darwin":
		b, err := newSandboxExec()
		if err == nil {
			return b, notes
		}
		notes = append(notes, "sandbox-exec: "+err.Error())
		missing = "sandbox-exec not usable"
	case "windows":
		b, err := newAppContainer()
		if err == nil {
			return b, notes
		}
		notes = append(notes, "AppContainer: "+err.Error())
		missing = "AppContainer not usable"
	default:
		missing = "no OS sandbox for " + runtime.GOOS
	}
	if allowNone {
		return newNoSandbox(), notes
	}
	return failClosed{reason: "no OS sandbox is available on this machine (" + strings.Join(notes, "; ") +
		"), and running with host permissions is not permitted. " + fixHint, missing: missing}, notes
}

func truthy(v string) bool {
	v = strings.TrimSpace(v)
	return v == "1" || strings.EqualFold(v, "true")
}

// noSandbox runs commands as plain host processes. It still starts from an
// empty environment, closes stdin and kills the whole process group, but
// confines nothing: files, network and syscalls are the host's.
type noSandbox struct{}

func newNoSandbox() Backend { return noSandbox{} }

func (noSandbox) Name() string { return "none" }

func (noSandbox) Start(ctx context.Context, m *Manifest, req Request) (Process, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := requireNoHostAllowlist(m, "the no-sandbox backend"); err != nil {
		return nil, err
	}
	if err := requireBasicManifest(m, "the no-sandbox backend"); err != nil {
		return nil, err
	}
	if len(req.Args) == 0 {
		return nil, fmt.Errorf("no command given")
	}
	warnNoSandbox()
	path, _ := m.envValue("PATH")
	bin, err := lookPathIn(req.Args[0], path)
	if err != nil {
		return nil, err
	}
	cmd := &exec.Cmd{Path: bin, Args: req.Args, Dir: req.Dir, Env: m.envList(), Stdout: req.Stdout, Stderr: req.Stderr}
	return startExec(ctx, cmd, req.Stdin, nil)
}

// noSandboxWarning rate-limits the no-isolation warning to once a minute:
// often enough to be seen in a long session, not once per command.
var noSandboxWarning struct {
	mu   sync.Mutex
	last time.Time
}

func warnNoSandbox() {
	noSandboxWarning.mu.Lock()
	defer noSandboxWarning.mu.Unlock()
	if !noSandboxWarning.last.IsZero() && time.Since(noSandboxWarning.last) < time.Minute {
		return
	}
	noSandboxWarning.last = time.Now()
	slog.Warn("bashbox: running commands with NO OS sandbox (" + EnvAllowNoSandbox + " is set): files, network and syscalls are not confined; only the environment is scrubbed")
}

// landlockWarning is logged once per process when Landlock cannot be used.
var landlockWarning sync.Once

func warnLandlockOnce(reason string) {
	landlockWarning.Do(func() {
		slog.Warn("bashbox: Landlock layer not applied: " + reason + "; bubblewrap isolation still holds")
	})
}
