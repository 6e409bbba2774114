package hostsandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// bubblewrap runs commands under bwrap: every namespace unshared (the
// network kept only for NetworkInherit), an empty environment, a read-only
// system skeleton, a private /tmp, /proc and /dev, and the manifest's
// paths bound read-only or writable at their own locations. Landlock and
// the strict seccomp filter are layered on top when available.
type bubblewrap struct {
	path          string
	rlimitAS      bool // this bwrap has --rlimit-as
	disableUserns bool // this bwrap has --disable-userns
	noPerms       bool // this bwrap lacks --perms (before 0.5)
}

// errBwrapNotFound is returned when no bwrap is on PATH.
var errBwrapNotFound = errors.New("bwrap not found on PATH")

// PrivateFiles reports that Manifest.Files are supported: they are created
// in the sandbox's own /tmp and HOME.
func (b *bubblewrap) PrivateFiles() bool { return true }

func (b *bubblewrap) Name() string { return "bubblewrap" }

func (b *bubblewrap) DefaultTimeout() time.Duration { return 30 * time.Second }

// systemSkeleton is bound read-only (or recreated as the same symlink)
// where present, so ordinary tools and their libraries work.
var systemSkeleton = []string{"/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32", "/etc"}

// maskedSystemFiles hide secrets that live under the skeleton: a sandbox
// started by root keeps uid 0, which owns these files.
var maskedSystemFiles = []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers", "/etc/master.passwd"}
var maskedSystemDirs = []string{"/etc/sudoers.d", "/etc/ssl/private", "/etc/ssh"}

// helperMountPath is where the helper binary appears inside the sandbox.
const helperMountPath = "/.bashbox/helper"

// bwrapPlan is the pure input of bwrapArgs, so the argument list can be
// checked without running anything.
type bwrapPlan struct {
	m          *Manifest
	req        Request
	helperPath string // host path of the helper executable; "" for none
	landlock   bool   // ask the helper to apply Landlock
	rlimitAS   bool   // bwrap has --rlimit-as
	// disableUserns: bwrap has --disable-userns (used under the strict
	// syscall policy, with the seccomp filter's clone checks).
	disableUserns bool
	noPerms       bool  // bwrap lacks --perms: made files keep its default modes
	seccompFD     int   // 0 for no filter
	fileFDs       []int // descriptors holding m.Files' contents, in order; 0 for a directory
	// protect lists the protected paths of the writable roots (see
	// protectedPaths): existing ones are bound read-only, missing ones get
	// a read-only placeholder.
	protect  []protectedPath
	lstat    func(string) (fs.FileInfo, error)
	readlink func(string) (string, error)
}

// bwrapArgs builds bwrap's argument list (without the bwrap path).
func bwrapArgs(p bwrapPlan) ([]string, error) {
	m := p.m
	if len(p.req.Args) == 0 {
		return nil, errors.New("no command given")
	}
	// --cap-drop ALL: started by root, bwrap would otherwise leave the
	// command nearly every capability (mknod a disk device, remount the
	// read-only binds writable).
	a := []string{"--die-with-parent", "--unshare-all", "--new-session", "--clearenv", "--cap-drop", "ALL"}
	if m.Syscalls == SyscallStrict && p.disableUserns {
		// No user namespaces inside: the command cannot gain capabilities
		// in a namespace of its own.
		a = append(a, "--unshare-user", "--disable-userns")
	}
	net := m.Network.effective()
	if net == NetworkInherit {
		a = append(a, "--share-net")
	}
	exists := func(path string) (fs.FileInfo, bool) {
		fi, err := p.lstat(path)
		return fi, err == nil
	}
	var llRead, llWrite []string
	for _, dir := range systemSkeleton {
		fi, ok := exists(dir)
		if !ok || (dir == "/etc" && m.SystemEtc != nil) {
			continue
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := p.readlink(dir)
			if err != nil {
				continue
			}
			a = append(a, "--symlink", target, dir)
			continue
		}
		a = append(a, "--ro-bind", dir, dir)
		llRead = append(llRead, dir)
	}
	etc := []string{"/etc"}
	if m.SystemEtc != nil {
		etc = nil
		for _, path := range cleanPaths(m.SystemEtc) {
			if !underAny(path, []string{"/etc"}) {
				return nil, fmt.Errorf("%w: system_etc entry %s is not under /etc", ErrPathDenied, path)
			}
			if _, ok := exists(path); ok {
				// bwrap resolves a symlinked source, so the file is there
				// even when it points outside the skeleton.
				a = append(a, "--ro-bind", path, path)
				llRead = append(llRead, path)
				etc = append(etc, path)
			}
		}
	}
	for _, f := range maskedSystemFiles {
		if fi, ok := exists(f); ok && fi.Mode().IsRegular() && underAny(f, etc) {
			a = append(a, "--ro-bind", "/dev/null", f)
		}
	}
	for _, d := range maskedSystemDirs {
		if fi, ok := exists(d); ok && fi.IsDir() && underAny(d, etc) {
			a = append(a, "--tmpfs", d, "--remount-ro", d)
		}
	}
	if net == NetworkInherit && m.SystemEtc == nil {
		// /etc/resolv.conf is often a symlink into /run, which is not
		// part of the skeleton: bring its directory along for DNS.
		if target, err := p.readlink("/etc/resolv.conf"); err == nil && filepath.IsAbs(target) && !underAny(target, systemSkeleton) {
			dir := filepath.Dir(target)
			if fi, ok := exists(dir); ok && fi.IsDir() {
				a = append(a, "--ro-bind", dir, dir)
				llRead = append(llRead, dir)
			}
		}
	}
	a = append(a, "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev")
	llRead = append(llRead, "/proc")
	llWrite = append(llWrite, "/tmp", "/dev")

	allowed := append(append([]string{}, m.FSReadAllow...), m.FSWriteAllow...)
	// A private, empty HOME when the real one is not shared, so tools that
	// write caches or config there work and leave nothing behind. Mounted
	// before the allow lists, which may lie inside it.
	home, privateHome := privateHomeOf(m)
	if privateHome {
		if underAny(home, []string{"/tmp"}) {
			a = append(a, "--dir", home)
		} else {
			a = append(a, "--tmpfs", home)
			llWrite = append(llWrite, home)
		}
	}
	// Files the caller wants in the private /tmp or HOME, written by bwrap
	// inside the sandbox: nothing of them ever exists on the host.
	for i, f := range m.Files {
		if !privateTarget(f.Path, home, privateHome) || underAny(f.Path, allowed) {
			return nil, fmt.Errorf("%w: file %s is not in the sandbox's private /tmp or HOME", ErrPathDenied, f.Path)
		}
		perms := func(mode string) []string {
			if p.noPerms {
				return nil
			}
			return []string{"--perms", mode}
		}
		switch {
		case f.Dir:
			// An empty read-only tmpfs: not even a uid 0 with
			// capabilities can add to it.
			a = append(a, "--tmpfs", f.Path, "--remount-ro", f.Path)
		case i < len(p.fileFDs) && p.fileFDs[i] > 0:
			a = append(append(a, perms("0444")...), "--ro-bind-data", strconv.Itoa(p.fileFDs[i]), f.Path)
		default:
			return nil, fmt.Errorf("file %s: no descriptor for its contents", f.Path)
		}
	}
	// Allow lists, parents first; a path in both lists is writable.
	writable := map[string]bool{}
	for _, w := range cleanPaths(m.FSWriteAllow) {
		writable[w] = true
	}
	all := cleanPaths(append(append([]string{}, m.FSReadAllow...), m.FSWriteAllow...))
	seen := map[string]bool{}
	for _, path := range all {
		if seen[path] {
			continue
		}
		seen[path] = true
		if _, ok := exists(path); !ok {
			return nil, fmt.Errorf("%w: %s does not exist", ErrPathDenied, path)
		}
		if writable[path] {
			a = append(a, "--bind", path, path)
			llWrite = append(llWrite, path)
		} else {
			a = append(a, "--ro-bind", path, path)
			llRead = append(llRead, path)
		}
	}
	for _, pp := range p.protect {
		switch {
		case pp.sweep:
			// checked after the command instead (sweepCreated)
		case pp.placeholder && pp.dir:
			// bwrap creates the directory as a mount point; Start removes
			// it again after the command, which cannot touch it.
			a = append(a, "--tmpfs", pp.path, "--remount-ro", pp.path)
		case pp.placeholder:
			a = append(a, "--ro-bind", "/dev/null", pp.path)
		default:
			a = append(a, "--ro-bind", pp.path, pp.path)
		}
	}
	for _, kv := range m.Env {
		a = append(a, "--setenv", kv[0], kv[1])
	}
	if p.req.Dir != "" {
		a = append(a, "--chdir", p.req.Dir)
	}
	if p.seccompFD > 0 {
		a = append(a, "--seccomp", strconv.Itoa(p.seccompFD))
	}

	command := p.req.Args
	needHelperLimits := (m.MaxMemoryBytes > 0 && !p.rlimitAS) || m.MaxCPUSecs > 0 || m.MaxFileBytes > 0
	if m.MaxMemoryBytes > 0 && p.rlimitAS {
		a = append(a, "--rlimit-as", strconv.FormatUint(m.MaxMemoryBytes, 10))
	}
	if needHelperLimits && p.helperPath == "" {
		return nil, fmt.Errorf("%w: resource limits need the bashbox sandbox helper (call hostsandbox.ServeHelper in main)", ErrPolicyNotSupported)
	}
	if p.helperPath != "" && (p.landlock || needHelperLimits) {
		cfg := helperConfig{}
		if needHelperLimits {
			cfg.MaxCPUSecs, cfg.MaxFileBytes = m.MaxCPUSecs, m.MaxFileBytes
			if !p.rlimitAS {
				cfg.MaxMemoryBytes = m.MaxMemoryBytes
			}
		}
		if p.landlock {
			cfg.Landlock = &landlockRules{Read: llRead, Write: llWrite, ListOnly: []string{"/"}, DenyTCP: net == NetworkDeny}
		}
		a = append(a, "--ro-bind", p.helperPath, helperMountPath)
		var err error
		command, err = helperArgs(helperMountPath, cfg, command)
		if err != nil {
			return nil, err
		}
	}
	a = append(a, "--")
	return append(a, command...), nil
}

// underAny reports whether path is one of roots or inside one.
func underAny(path string, roots []string) bool {
	path = filepath.Clean(path)
	for _, r := range roots {
		r = filepath.Clean(r)
		if path == r || strings.HasPrefix(path, r+string(filepath.Separator)) || r == string(filepath.Separator) {
			return true
		}
	}
	return false
}

func (b *bubblewrap) Start(ctx context.Context, m *Manifest, req Request) (Process, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := requireNoHostAllowlist(m, "bubblewrap"); err != nil {
		return nil, err
	}
	plan := bwrapPlan{m: m, req: req, rlimitAS: b.rlimitAS, disableUserns: b.disableUserns, noPerms: b.noPerms, lstat: os.Lstat, readlink: os.Readlink}
	if exe, ok := helperPath(); ok {
		plan.helperPath = exe
	}
	if !m.DisableLandlock {
		switch {
		case landlockABI() == 0:
			warnLandlockOnce("the kernel does not offer Landlock")
		case plan.helperPath == "":
			warnLandlockOnce("this program does not call hostsandbox.ServeHelper")
		default:
			plan.landlock = true
		}
	}
	var extra []*os.File
	closeExtra := func() {
		for _, f := range extra {
			f.Close()
		}
	}
	if m.Syscalls == SyscallStrict {
		f, err := seccompFile()
		if err != nil {
			return nil, fmt.Errorf("%w: strict syscall policy: %v", ErrPolicyNotSupported, err)
		}
		extra = append(extra, f)
		plan.seccompFD = 2 + len(extra) // ExtraFiles start at descriptor 3
	}
	for _, f := range m.Files {
		if f.Dir {
			plan.fileFDs = append(plan.fileFDs, 0)
			continue
		}
		mf, err := memFile("bashbox-file", f.Data)
		if err != nil {
			closeExtra()
			return nil, fmt.Errorf("file %s: %w", f.Path, err)
		}
		extra = append(extra, mf)
		plan.fileFDs = append(plan.fileFDs, 2+len(extra))
	}
	var held []string
	if !m.AllowRepoMetadataWrites {
		plan.protect, held = placeholders.acquire(protectedPaths(m.FSWriteAllow, os.Lstat, os.ReadDir))
	}
	cleanup := func() {
		closeExtra()
		placeholders.release(held)
		sweepCreated(plan.protect, req.Stderr)
	}
	args, err := bwrapArgs(plan)
	if err != nil {
		cleanup()
		return nil, err
	}
	cmd := &exec.Cmd{Path: b.path, Args: append([]string{b.path}, args...), Env: []string{},
		Stdout: req.Stdout, Stderr: req.Stderr, ExtraFiles: extra}
	return startExec(ctx, cmd, req.Stdin, cleanup)
}

// privateHomeOf returns the manifest's HOME when bubblewrap gives it a
// private, empty directory: an absolute path that is not shared through
// the allow lists or part of the system skeleton.
func privateHomeOf(m *Manifest) (string, bool) {
	home, ok := m.envValue("HOME")
	if !ok || !filepath.IsAbs(home) || filepath.Clean(home) == "/" {
		return "", false
	}
	allowed := append(append([]string{}, m.FSReadAllow...), m.FSWriteAllow...)
	if underAny(home, allowed) || underAny(home, systemSkeleton) || underAny(home, []string{"/proc", "/dev"}) {
		return "", false
	}
	return filepath.Clean(home), true
}

// privateTarget reports whether path lies strictly inside the sandbox's
// private /tmp or its private HOME (the caller also checks that no allow
// list path, bound from the host, covers it).
func privateTarget(path, home string, privateHome bool) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	path = filepath.Clean(path)
	inside := func(dir string) bool { return path != dir && underAny(path, []string{dir}) }
	return inside("/tmp") || (privateHome && inside(home))
}

// bwrapProbe caches, per bwrap path, whether bwrap can create a sandbox
// here (user namespaces may be disabled) and which flags it has.
var bwrapProbe struct {
	mu      sync.Mutex
	results map[string]bwrapProbeResult
}

type bwrapProbeResult struct {
	err           error
	rlimitAS      bool
	disableUserns bool
	noPerms       bool
	version       string
}

func probeBubblewrap(path string) bwrapProbeResult {
	bwrapProbe.mu.Lock()
	defer bwrapProbe.mu.Unlock()
	if r, ok := bwrapProbe.results[path]; ok {
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var r bwrapProbeResult
	args := []string{"--die-with-parent", "--unshare-all", "--new-session", "--clearenv"}
	for _, dir := range systemSkeleton {
		if fi, err := os.Lstat(dir); err == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				if t, err := os.Readlink(dir); err == nil {
					args = append(args, "--symlink", t, dir)
				}
			} else {
				args = append(args, "--ro-bind", dir, dir)
			}
		}
	}
	args = append(args, "--proc", "/proc", "--dev", "/dev", "--setenv", "PATH", "/usr/bin:/bin", "--", "true")
	out, err := exec.CommandContext(ctx, path, args...).CombinedOutput()
	if err != nil {
		r.err = fmt.Errorf("%s cannot create a sandbox here: %v: %s", path, err, strings.TrimSpace(string(out)))
	}
	help, _ := exec.CommandContext(ctx, path, "--help").CombinedOutput()
	r.rlimitAS = bytes.Contains(help, []byte("--rlimit-as"))
	r.disableUserns = bytes.Contains(help, []byte("--disable-userns"))
	r.noPerms = !bytes.Contains(help, []byte("--perms"))
	ver, _ := exec.CommandContext(ctx, path, "--version").Output()
	r.version = strings.TrimSpace(string(ver))
	if bwrapProbe.results == nil {
		bwrapProbe.results = map[string]bwrapProbeResult{}
	}
	bwrapProbe.results[path] = r
	return r
}

// newBubblewrapFromPath finds bwrap on PATH and checks that it works.
func newBubblewrapFromPath() (*bubblewrap, error) {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, errBwrapNotFound
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	r := probeBubblewrap(path)
	if r.err != nil {
		return nil, r.err
	}
	return &bubblewrap{path: path, rlimitAS: r.rlimitAS, disableUserns: r.disableUserns, noPerms: r.noPerms}, nil
}
