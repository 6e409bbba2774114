// Package volumes holds the mount table of a box (host directories bound at
// guest paths, read-only, read-write or ephemeral) and builds, per call, the
// guest namespace a script sees: the volumes, the synthetic root of /tmp,
// $HOME, /dev and /bin, and nothing else of the host.
package volumes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bashbox/bashbox/overlayfs"
)

// Mode is how a volume is bound.
type Mode string

const (
	// ReadOnly: the host directory is the base of a copy-on-write overlay;
	// writes land in memory and vanish after the call.
	ReadOnly Mode = "ro"
	// ReadWrite: writes go through to the host directory.
	ReadWrite Mode = "rw"
	// Ephemeral: an empty in-memory directory for the call.
	Ephemeral Mode = "ephemeral"
)

// DefaultGuestPath is where a volume lands when no guest path is given.
const DefaultGuestPath = "/work"

// Volume binds a host directory at a guest path.
type Volume struct {
	HostDir   string // empty for Ephemeral
	GuestPath string
	Mode      Mode
	// Base is the directory a relative HostDir is taken from (empty: the
	// process's working directory). The CLI's daemon serves launchers
	// started in other directories than its own.
	Base string
}

// SpecSyntax is the CLI form of a volume, for help texts and errors.
const SpecSyntax = "HOST_DIR[:GUEST_PATH][:ro|:rw] or :GUEST_PATH:ephemeral"

// Parse reads the CLI form of a volume: HOST_DIR, HOST_DIR:GUEST_PATH,
// HOST_DIR:ro|rw, HOST_DIR:GUEST_PATH:ro|rw, or :GUEST_PATH:ephemeral for
// an empty in-memory directory. The guest path defaults to /work and the
// mode to ro. A spec that could mean two things is refused rather than
// guessed: a host directory with "ephemeral" (which has none), a relative
// guest path (a mistyped mode such as "RW" would otherwise become one), an
// empty part.
func Parse(spec string) (Volume, error) {
	v := Volume{GuestPath: DefaultGuestPath, Mode: ReadOnly}
	bad := func(format string, args ...any) (Volume, error) {
		return v, fmt.Errorf("invalid volume %q: %s", spec, fmt.Sprintf(format, args...))
	}
	if spec == "" {
		return bad("empty; want %s", SpecSyntax)
	}
	parts := strings.Split(spec, ":")
	if n := len(parts); n > 1 {
		switch Mode(parts[n-1]) {
		case ReadOnly, ReadWrite, Ephemeral:
			v.Mode = Mode(parts[n-1])
			parts = parts[:n-1]
		}
	}
	switch len(parts) {
	case 1:
	case 2:
		v.GuestPath = parts[1]
		if v.GuestPath == "" {
			return bad("empty guest path; want %s", SpecSyntax)
		}
		if !path.IsAbs(v.GuestPath) {
			return bad("guest path %q is not absolute (modes are ro, rw and ephemeral); want %s", v.GuestPath, SpecSyntax)
		}
	default:
		return bad("too many ':'; want %s (host directories containing ':' cannot be bound from the command line)", SpecSyntax)
	}
	v.HostDir = parts[0]
	switch {
	case v.Mode == Ephemeral && v.HostDir != "":
		return bad("an ephemeral volume has no host directory; for an empty in-memory directory write :%s:ephemeral, for %s itself drop :ephemeral", v.GuestPath, v.HostDir)
	case v.Mode == Ephemeral && len(parts) == 1:
		return bad("give the guest path: :GUEST_PATH:ephemeral, e.g. :/scratch:ephemeral")
	case v.Mode != Ephemeral && v.HostDir == "":
		return bad("empty host directory; for an empty in-memory directory write :%s:ephemeral", v.GuestPath)
	}
	return v, nil
}

// reserved guest paths belong to the synthetic root.
var reserved = []string{"/dev", "/bin", "/usr/bin", "/proc"}

// Table is a validated set of volumes, with their host directories open.
// It is safe for concurrent use; each call builds its own Namespace.
type Table struct {
	vols  []Volume
	hosts []*overlayfs.HostFs // parallel to vols; nil for Ephemeral
}

// NewTable validates vols and opens their host directories.
func NewTable(vols []Volume) (*Table, error) {
	t := &Table{}
	seen := map[string]bool{}
	for _, v := range vols {
		if v.Mode == "" {
			v.Mode = ReadOnly
		}
		if v.GuestPath == "" {
			v.GuestPath = DefaultGuestPath
		}
		if !path.IsAbs(v.GuestPath) {
			return nil, fmt.Errorf("volume guest path %q must be absolute", v.GuestPath)
		}
		v.GuestPath = path.Clean(v.GuestPath)
		if v.GuestPath == "/" {
			return nil, fmt.Errorf("volume guest path must not be /")
		}
		for _, r := range reserved {
			if v.GuestPath == r || strings.HasPrefix(v.GuestPath, r+"/") || strings.HasPrefix(r, v.GuestPath+"/") && r != "/usr/bin" {
				return nil, fmt.Errorf("volume guest path %s conflicts with the sandbox's %s", v.GuestPath, r)
			}
		}
		if seen[v.GuestPath] {
			return nil, fmt.Errorf("two volumes at guest path %s", v.GuestPath)
		}
		seen[v.GuestPath] = true
		var host *overlayfs.HostFs
		switch v.Mode {
		case ReadOnly, ReadWrite:
			abs := v.HostDir
			if v.Base != "" && !filepath.IsAbs(abs) {
				abs = filepath.Join(v.Base, abs)
			}
			abs, err := filepath.Abs(abs)
			if err != nil {
				return nil, err
			}
			fi, err := os.Stat(abs)
			if err != nil {
				return nil, fmt.Errorf("volume %s: %w", v.HostDir, errors.Unwrap(err))
			}
			if !fi.IsDir() {
				return nil, fmt.Errorf("volume %s: not a directory", v.HostDir)
			}
			v.HostDir = abs
			host, err = overlayfs.NewHostFs(abs, v.Mode == ReadOnly)
			if err != nil {
				return nil, fmt.Errorf("volume %s: %w", v.HostDir, err)
			}
		case Ephemeral:
			v.HostDir = ""
		default:
			return nil, fmt.Errorf("volume %s: unknown mode %q (want ro, rw or ephemeral)", v.GuestPath, v.Mode)
		}
		t.vols = append(t.vols, v)
		t.hosts = append(t.hosts, host)
	}
	// A writable volume nested inside a read-only one would let a script
	// change what the read-only binding promises to keep.
	for _, inner := range t.vols {
		for _, outer := range t.vols {
			if outer.Mode == ReadOnly && inner.Mode == ReadWrite && strings.HasPrefix(inner.GuestPath, outer.GuestPath+"/") {
				return nil, fmt.Errorf("read-write volume %s is nested in read-only volume %s", inner.GuestPath, outer.GuestPath)
			}
		}
	}
	return t, nil
}

// Volumes returns the validated volumes.
func (t *Table) Volumes() []Volume { return append([]Volume(nil), t.vols...) }

// Close releases the host directory handles.
func (t *Table) Close() error {
	for _, h := range t.hosts {
		if h != nil {
			h.Close()
		}
	}
	return nil
}

// mount is one entry of a namespace's mount list.
type mount struct {
	guest  string
	layer  overlayfs.Layer
	vol    *Volume // nil for the synthetic root
	nested bool    // another volume is mounted below this one
}

// Options shape a call's namespace.
type Options struct {
	Quota    *overlayfs.Quota
	Writes   *overlayfs.WriteQuota // writes through to read-write volumes
	Commands []string              // listed in /bin and /usr/bin; never modified
	Home     string                // created in memory
	// Pace, when set, is called on every open and directory listing: a
	// checkpoint of the call (interp.Budget.Yield), for commands that
	// walk or read many files without writing to a pipe.
	Pace func()
}

// Namespace builds a fresh guest namespace for one call.
func (t *Table) Namespace(opts Options) *Namespace {
	root := overlayfs.NewMemFs(opts.Quota)
	for _, d := range []string{"/tmp", "/dev", "/usr", opts.Home} {
		if d != "" {
			overlayfs.MkdirAll(root, d, 0o755)
		}
	}
	root.Chmod("/tmp", fs.ModeSticky|0o777)
	ns := &Namespace{quota: opts.Quota, writes: opts.Writes, commandList: opts.Commands, pace: opts.Pace}
	if !slices.IsSorted(opts.Commands) {
		ns.commandList = slices.Sorted(slices.Values(opts.Commands))
	} // a sorted list is shared, read-only, by every call
	for i := range t.vols {
		v := &t.vols[i]
		overlayfs.MkdirAll(root, v.GuestPath, 0o755)
		var layer overlayfs.Layer
		switch v.Mode {
		case ReadOnly:
			layer = overlayfs.NewOverlay(t.hosts[i], overlayfs.NewMemFs(opts.Quota))
		case ReadWrite:
			layer = overlayfs.NewMeteredHost(t.hosts[i], opts.Writes).HoldFifoData(opts.Quota)
		case Ephemeral:
			layer = overlayfs.NewMemFs(opts.Quota)
		}
		ns.mounts = append(ns.mounts, mount{guest: v.GuestPath, layer: layer, vol: v})
	}
	// Longest guest path first, so lookup finds the innermost mount.
	sort.Slice(ns.mounts, func(i, j int) bool { return len(ns.mounts[i].guest) > len(ns.mounts[j].guest) })
	for i := range ns.mounts {
		for _, inner := range ns.mounts[:i] { // longer paths come first
			ns.mounts[i].nested = ns.mounts[i].nested || strings.HasPrefix(inner.guest, ns.mounts[i].guest+"/")
		}
	}
	ns.mounts = append(ns.mounts, mount{guest: "/", layer: root})
	return ns
}
