package hostsandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// sandboxExec runs commands under macOS sandbox-exec with a deny-default
// SBPL profile built from the manifest. The profile language has no
// resource limits (the helper sets them with setrlimit when available) and
// no host allowlist (allow_hosts is refused).
type sandboxExec struct {
	path string
}

const sandboxExecPath = "/usr/bin/sandbox-exec"

func (s *sandboxExec) Name() string { return "sandbox-exec" }

func (s *sandboxExec) DefaultTimeout() time.Duration { return 30 * time.Second }

// sbplQuote renders path as an SBPL string literal. Paths with a NUL or a
// line break are refused outright: they cannot be expressed safely and
// would let a crafted manifest path inject profile rules.
func sbplQuote(path string) (string, error) {
	if strings.ContainsAny(path, "\x00\n\r") {
		return "", fmt.Errorf("%w: path %q contains a NUL or line break", ErrPathDenied, path)
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(path) + `"`, nil
}

// sbplProfile builds the profile. tmpDir is a private writable directory
// for the command's TMPDIR; extraRead are more readable paths (the helper).
func sbplProfile(m *Manifest, tmpDir string, extraRead []string) (string, error) {
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString("(allow process-fork)\n(allow process-exec)\n(allow signal (target self))\n")
	// dyld and shells need these to start at all.
	b.WriteString("(allow file-read* (literal \"/\"))\n")
	b.WriteString("(allow file-read* (subpath \"/usr\") (subpath \"/System\") (subpath \"/Library\") (subpath \"/bin\") (subpath \"/sbin\") (subpath \"/private/var/db/dyld\") (subpath \"/private/etc\") (literal \"/etc\") (literal \"/var\") (literal \"/tmp\") (literal \"/private\"))\n")
	b.WriteString("(allow file-read* file-write-data (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/dtracehelper\"))\n")
	b.WriteString("(allow file-read* (literal \"/dev/urandom\") (literal \"/dev/random\"))\n")
	// zsh on macOS 26 reads hw.* and kern.* sysctls before main().
	b.WriteString("(allow sysctl-read (sysctl-name-prefix \"hw.\") (sysctl-name-prefix \"kern.\"))\n")
	// Left unfiltered: system frameworks look up many services at start.
	b.WriteString("(allow mach-lookup)\n")
	readable := append(append([]string{}, m.FSReadAllow...), extraRead...)
	for _, p := range readable {
		q, err := sbplQuote(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "(allow file-read* (subpath %s))\n", q)
	}
	writable := append([]string{}, m.FSWriteAllow...)
	if tmpDir != "" {
		writable = append(writable, tmpDir)
	}
	for _, p := range writable {
		q, err := sbplQuote(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "(allow file-read* file-write* (subpath %s))\n", q)
	}
	if m.Network.effective() == NetworkInherit {
		b.WriteString("(allow network*)\n")
	}
	return b.String(), nil
}

func (s *sandboxExec) Start(ctx context.Context, m *Manifest, req Request) (Process, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := requireNoHostAllowlist(m, "sandbox-exec"); err != nil {
		return nil, err
	}
	if m.Syscalls == SyscallStrict {
		return nil, fmt.Errorf("%w: sandbox-exec has no syscall filter (strict)", ErrPolicyNotSupported)
	}
	if err := requireBasicManifest(m, "sandbox-exec"); err != nil {
		return nil, err
	}
	if len(req.Args) == 0 {
		return nil, errors.New("no command given")
	}
	tmpDir, err := os.MkdirTemp("", "bashbox-sbx-")
	if err != nil {
		return nil, err
	}
	cleanup := func() { os.RemoveAll(tmpDir) }
	command := req.Args
	var extraRead []string
	if m.MaxMemoryBytes > 0 || m.MaxCPUSecs > 0 || m.MaxFileBytes > 0 {
		exe, ok := helperPath()
		if !ok {
			cleanup()
			return nil, fmt.Errorf("%w: resource limits need the bashbox sandbox helper (call hostsandbox.ServeHelper in main)", ErrPolicyNotSupported)
		}
		command, err = helperArgs(exe, helperConfig{MaxMemoryBytes: m.MaxMemoryBytes, MaxCPUSecs: m.MaxCPUSecs, MaxFileBytes: m.MaxFileBytes}, command)
		if err != nil {
			cleanup()
			return nil, err
		}
		extraRead = append(extraRead, exe)
	}
	profile, err := sbplProfile(m, tmpDir, extraRead)
	if err != nil {
		cleanup()
		return nil, err
	}
	env := append(m.envList(), "TMPDIR="+tmpDir)
	path, _ := m.envValue("PATH")
	bin, err := lookPathIn(command[0], path)
	if err != nil {
		cleanup()
		return nil, err
	}
	args := append([]string{s.path, "-p", profile, bin}, command[1:]...)
	cmd := &exec.Cmd{Path: s.path, Args: args, Dir: req.Dir, Env: env, Stdout: req.Stdout, Stderr: req.Stderr}
	return startExec(ctx, cmd, req.Stdin, cleanup)
}

// sandboxExecProbe caches a successful availability probe; a failure is
// retried next time, so a transient error does not disable sandboxing.
var sandboxExecProbe onceOK

func newSandboxExec() (*sandboxExec, error) {
	if !sandboxExecSupportedOS {
		return nil, errors.New("sandbox-exec exists only on macOS")
	}
	err := sandboxExecProbe.check(func() error {
		out, err := exec.Command(sandboxExecPath, "-p", "(version 1)(allow default)", "/usr/bin/true").CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s does not work here: %v: %s", sandboxExecPath, err, strings.TrimSpace(string(out)))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &sandboxExec{path: sandboxExecPath}, nil
}
