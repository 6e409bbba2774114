package hostsandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// NetworkMode says what network a sandboxed command may use.
type NetworkMode string

const (
	// NetworkDeny gives the command no network at all (the zero value means
	// this too, so a forgotten field fails safe).
	NetworkDeny NetworkMode = "deny"
	// NetworkInherit lets the command use the host's network.
	NetworkInherit NetworkMode = "inherit"
	// NetworkAllowHosts would allow only the named hosts. No current backend
	// can enforce a host allowlist, so every backend refuses it.
	NetworkAllowHosts NetworkMode = "allow_hosts"
)

// NetworkPolicy is the manifest's network field.
type NetworkPolicy struct {
	Mode  NetworkMode `json:"kind"`
	Hosts []string    `json:"hosts,omitempty"` // only for NetworkAllowHosts
}

// effective returns the mode with the zero value resolved to deny.
func (n NetworkPolicy) effective() NetworkMode {
	if n.Mode == "" {
		return NetworkDeny
	}
	return n.Mode
}

// SyscallPolicy says whether a syscall filter is applied.
type SyscallPolicy string

const (
	// SyscallInherit applies no filter of our own (the zero value).
	SyscallInherit SyscallPolicy = "inherit"
	// SyscallStrict applies a seccomp filter that denies ptrace, io_uring,
	// raw and netlink sockets, kernel-module, mount and similar syscalls.
	// Only the bubblewrap backend can enforce it; others refuse it.
	SyscallStrict SyscallPolicy = "strict"
)

// Manifest declares what one sandboxed command may do. Paths must be
// absolute: a relative path is refused by Validate before any backend runs.
type Manifest struct {
	FSReadAllow  []string      `json:"fs_read_allow,omitempty"`
	FSWriteAllow []string      `json:"fs_write_allow,omitempty"`
	Network      NetworkPolicy `json:"network"`
	Syscalls     SyscallPolicy `json:"syscall_policy,omitempty"`
	// Timeout bounds the command's wall-clock time in Run. Zero means the
	// backend's default (30 s for bubblewrap, 60 s for AppContainer).
	Timeout        time.Duration `json:"timeout,omitempty"`
	MaxMemoryBytes uint64        `json:"max_memory_bytes,omitempty"`
	MaxCPUSecs     uint64        `json:"max_cpu_secs,omitempty"`
	// MaxFileBytes is the largest size the command may make any regular
	// file (RLIMIT_FSIZE): a write past it fails with EFBIG ("File too
	// large"). It bounds each file, not their total. Bubblewrap,
	// sandbox-exec (both through the helper) and Docker enforce it;
	// AppContainer has no such limit and ignores it, as the no-sandbox
	// backend ignores every limit.
	MaxFileBytes uint64 `json:"max_file_bytes,omitempty"`
	// Env is the command's whole environment: every backend starts from an
	// empty environment, never the host's.
	Env [][2]string `json:"env,omitempty"`
	// Image is the container image (Docker only; others ignore it).
	Image string `json:"image,omitempty"`
	// DisableLandlock turns off the Landlock layer of the bubblewrap backend.
	// It is on whenever the kernel and the sandbox helper support it.
	DisableLandlock bool `json:"disable_landlock,omitempty"`
	// SystemEtc, when not nil, replaces the whole read-only /etc of the
	// system skeleton with just these entries (absolute paths under /etc;
	// missing ones are skipped), for commands that need only a few.
	// Only bubblewrap narrows /etc; other backends refuse it.
	SystemEtc []string `json:"system_etc,omitempty"`
	// Files are created inside the sandbox before the command starts, in
	// its private /tmp or private HOME: nothing of them is written on the
	// host. Only backends with a private /tmp and HOME (bubblewrap) accept
	// them; see SupportsPrivateFiles.
	Files []File `json:"files,omitempty"`
	// AllowRepoMetadataWrites lets the command change .git/hooks,
	// .git/config and shell rc files in its writable roots, which are
	// otherwise read-only (see README). For callers whose users can write
	// those files by other means anyway (bashbox's fallback commands: the
	// script writes them through its read-write volume).
	AllowRepoMetadataWrites bool `json:"allow_repo_metadata_writes,omitempty"`
}

// File is one file or directory made inside the sandbox.
type File struct {
	Path string `json:"path"`
	Data []byte `json:"data,omitempty"`
	// Dir makes an empty, read-only directory instead of a file (files
	// are read-only too).
	Dir bool `json:"dir,omitempty"`
}

// SupportsStdin reports whether b forwards Request.Stdin (docker and
// AppContainer do not, and refuse a non-nil one).
func SupportsStdin(b Backend) bool {
	switch b.(type) {
	case *bubblewrap, *sandboxExec, noSandbox:
		return true
	}
	return false
}

// SupportsPrivateFiles reports whether b can create Manifest.Files.
func SupportsPrivateFiles(b Backend) bool {
	f, ok := b.(interface{ PrivateFiles() bool })
	return ok && f.PrivateFiles()
}

// requireBasicManifest is the common refusal of the fields only bubblewrap
// implements.
func requireBasicManifest(m *Manifest, backend string) error {
	if len(m.Files) > 0 {
		return fmt.Errorf("%w: %s cannot create files in a private /tmp or HOME", ErrPolicyNotSupported, backend)
	}
	if m.SystemEtc != nil {
		return fmt.Errorf("%w: %s cannot narrow the view of /etc", ErrPolicyNotSupported, backend)
	}
	return nil
}

// ErrPathDenied is wrapped by Validate's errors for unusable manifest paths.
var ErrPathDenied = errors.New("sandbox path denied")

// ErrPolicyNotSupported is wrapped when a backend cannot enforce a policy
// the manifest asks for; the command is refused rather than run weaker.
var ErrPolicyNotSupported = errors.New("sandbox policy not supported by this backend")

// ErrUnavailable is wrapped by the fail-closed backend's refusals.
var ErrUnavailable = errors.New("sandbox unavailable")

// Validate checks the fields every backend relies on. It is called by Run
// and by every backend's Start, so a bad manifest never reaches a backend.
func (m *Manifest) Validate() error {
	for _, list := range [][]string{m.FSReadAllow, m.FSWriteAllow} {
		for _, p := range list {
			if err := checkManifestPath(p); err != nil {
				return err
			}
		}
	}
	switch m.Network.effective() {
	case NetworkDeny, NetworkInherit:
	case NetworkAllowHosts:
		// Checked per backend: all current ones refuse it.
	default:
		return fmt.Errorf("unknown network policy %q (want inherit, deny or allow_hosts)", m.Network.Mode)
	}
	switch m.Syscalls {
	case "", SyscallInherit, SyscallStrict:
	default:
		return fmt.Errorf("unknown syscall policy %q (want inherit or strict)", m.Syscalls)
	}
	for _, f := range m.Files {
		if err := checkManifestPath(f.Path); err != nil {
			return err
		}
	}
	for _, p := range m.SystemEtc {
		if err := checkManifestPath(p); err != nil {
			return err
		}
	}
	for _, kv := range m.Env {
		if kv[0] == "" || strings.ContainsAny(kv[0], "=\x00") || strings.ContainsRune(kv[1], 0) {
			return fmt.Errorf("invalid environment entry %q", kv[0])
		}
	}
	return nil
}

func checkManifestPath(p string) error {
	if strings.ContainsAny(p, "\x00\n\r") {
		return fmt.Errorf("%w: path %q contains a NUL or newline", ErrPathDenied, p)
	}
	// filepath.IsAbs is OS-specific; on Windows a path like /x is not
	// absolute, which is what we want there.
	if !filepath.IsAbs(p) {
		return fmt.Errorf("%w: %q is not an absolute path", ErrPathDenied, p)
	}
	return nil
}

// envList renders m.Env as NAME=VALUE strings for exec.Cmd.Env.
func (m *Manifest) envList() []string {
	out := make([]string, 0, len(m.Env))
	for _, kv := range m.Env {
		out = append(out, kv[0]+"="+kv[1])
	}
	return out
}

// envValue returns the manifest's value for name, if any.
func (m *Manifest) envValue(name string) (string, bool) {
	for i := len(m.Env) - 1; i >= 0; i-- {
		if m.Env[i][0] == name {
			return m.Env[i][1], true
		}
	}
	return "", false
}

// requireNoHostAllowlist is the common refusal for allow_hosts.
func requireNoHostAllowlist(m *Manifest, backend string) error {
	if m.Network.effective() == NetworkAllowHosts {
		return fmt.Errorf("%w: %s cannot restrict the network to named hosts (allow_hosts); use deny or inherit", ErrPolicyNotSupported, backend)
	}
	return nil
}

// cleanPaths returns the cleaned paths sorted parents first, so nested
// allowances mount after the directories that contain them.
func cleanPaths(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		out = append(out, filepath.Clean(p))
	}
	sortByDepth(out)
	return out
}

func sortByDepth(paths []string) {
	depth := func(p string) int { return strings.Count(filepath.ToSlash(p), "/") }
	// insertion sort keeps equal-depth order stable; lists are short.
	for i := 1; i < len(paths); i++ {
		for j := i; j > 0 && depth(paths[j]) < depth(paths[j-1]); j-- {
			paths[j], paths[j-1] = paths[j-1], paths[j]
		}
	}
}
