package fallback

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/hostsandbox"
	"github.com/bashbox/bashbox/volumes"
)

// fallbackHome is the children's HOME: a private, empty tmpfs inside the
// sandbox, whatever HOME the operator passes (the host's would not be
// visible anyway).
const fallbackHome = "/home/bashbox"

// systemEtc is all of /etc a fallback sees: accounts and name resolution,
// the dynamic linker's cache, time zone, and the CA certificates for
// https. Everything else there (other programs' config, secrets) is absent.
var systemEtc = []string{
	"/etc/passwd", "/etc/group", "/etc/hosts", "/etc/resolv.conf", "/etc/nsswitch.conf", "/etc/host.conf",
	"/etc/gai.conf", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
	"/etc/ssl", "/etc/ca-certificates", "/etc/ca-certificates.conf", "/etc/pki", "/etc/crypto-policies",
	"/etc/mime.types",
}

// skeleton is what every backend already shows read-only.
var skeleton = []string{"/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32", "/etc"}

// sandbox is the OS view of one fallback call.
type sandbox struct {
	backend  hostsandbox.Backend
	manifest hostsandbox.Manifest
	env      [][2]string
	dir      string
	// private: the backend writes the manifest's files inside the
	// sandbox (bubblewrap); otherwise git's config and hooks are pointed
	// at the null device.
	private bool
}

// newSandbox describes the call's sandbox: the read-write volumes
// writable and the read-only ones readable, at their host paths (symlinks
// resolved, as the cwd is), plus what the binaries need.
func (r *Runner) newSandbox(ctx context.Context, name string, m mounter, dir string) *sandbox {
	sb := &sandbox{backend: r.backend, dir: dir, private: hostsandbox.SupportsPrivateFiles(r.backend)}
	mf := &sb.manifest
	for _, mt := range m.Mounts() {
		if mt.HostDir == "" {
			continue // ephemeral: in memory, nothing on the host
		}
		host, err := filepath.EvalSymlinks(mt.HostDir)
		if err != nil {
			continue
		}
		switch mt.Mode {
		case volumes.ReadWrite:
			mf.FSWriteAllow = append(mf.FSWriteAllow, host)
		case volumes.ReadOnly:
			mf.FSReadAllow = append(mf.FSReadAllow, host)
		}
	}
	mf.FSReadAllow = append(mf.FSReadAllow, r.readOnly...)
	mf.Network.Mode = hostsandbox.NetworkDeny
	if r.network[name] {
		mf.Network.Mode = hostsandbox.NetworkInherit
	}
	mf.MaxMemoryBytes = r.maxMem
	// The call's time budget bounds the child's wall clock and, one
	// second over, its CPU time (a child that forks many CPU hogs is still
	// killed by the wall clock).
	mf.Timeout = 24 * time.Hour
	if deadline, ok := ctx.Deadline(); ok {
		mf.Timeout = max(time.Until(deadline), time.Millisecond)
		mf.MaxCPUSecs = uint64(mf.Timeout/time.Second) + 2
	}
	// Whatever the child leaves in .git or rc files, the script could
	// have written through its read-write volume anyway.
	mf.AllowRepoMetadataWrites = true
	if hostsandbox.Confining(r.backend) && sb.private {
		mf.Syscalls = hostsandbox.SyscallStrict
		mf.SystemEtc = systemEtc
	}
	hasPath := false
	for _, kv := range r.env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME":
			continue
		case "PATH":
			hasPath = true
		}
		sb.env = append(sb.env, [2]string{k, v})
	}
	if !hasPath {
		sb.env = append(sb.env, [2]string{"PATH", "/usr/local/bin:/usr/bin:/bin"})
	}
	if sb.private {
		sb.env = append(sb.env, [2]string{"HOME", fallbackHome})
	}
	return sb
}

// addFile asks the backend to create a file (or empty directory) in the
// sandbox's private HOME; only called when sb.private.
func (sb *sandbox) addFile(rel string, data []byte, dir bool) string {
	p := fallbackHome + "/" + rel
	sb.manifest.Files = append(sb.manifest.Files, hostsandbox.File{Path: p, Data: data, Dir: dir})
	return p
}

// run starts argv in the sandbox with the call's streams and returns its
// exit status: 126 when it could not start, 124 when the time budget ran
// out, 128+9 when the call was cancelled.
func (sb *sandbox) run(ctx context.Context, argv []string, c *builtins.Call) int {
	m := sb.manifest
	m.Env = sb.env
	req := hostsandbox.Request{Args: argv, Dir: sb.dir, Stdout: c.Stdout, Stderr: c.Stderr}
	if hostsandbox.SupportsStdin(sb.backend) {
		req.Stdin = c.Stdin
	}
	oc, err := hostsandbox.Run(ctx, sb.backend, &m, req)
	switch {
	case err == nil:
		return oc.ExitCode
	case ctx.Err() != nil:
		return 128 + 9
	default:
		fmt.Fprintf(c.Stderr, "bashbox: %s: %v\n", filepath.Base(argv[0]), err)
		return 126
	}
}

// outsideSkeleton returns p (and its symlink target) when it lies outside
// the system directories every sandbox shows, so it can be bound
// read-only.
func outsideSkeleton(p string) []string {
	var out []string
	for _, q := range []string{p, evalOr(p)} {
		if !underAny(q, skeleton) && !contains(out, q) {
			out = append(out, q)
		}
	}
	return out
}

func evalOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if within(p, r) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// gitExecPath asks git where its helper programs live (git-remote-https
// and the like), so the sandbox can show them when they are not under
// /usr. It runs the operator's binary with one fixed argument, in /.
func gitExecPath(bin string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--exec-path")
	cmd.Dir, cmd.Env = "/", []string{}
	out, err := cmd.Output()
	p := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(p) {
		return nil
	}
	return outsideSkeleton(p)
}

// volumeRoot is the host directory of the read-write volume holding the
// cwd (symlinks resolved).
func (sb *sandbox) volumeRoot() string {
	best := ""
	for _, w := range sb.manifest.FSWriteAllow {
		if within(sb.dir, w) && len(w) > len(best) {
			best = w
		}
	}
	return best
}

// ceiling is the parent of the cwd's volume, so git's repository
// discovery never climbs out of the volume.
func (sb *sandbox) ceiling() string {
	if root := sb.volumeRoot(); root != "" {
		return filepath.Dir(root)
	}
	return ""
}
