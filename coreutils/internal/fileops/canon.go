package fileops

import (
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/bashbox/bashbox/builtins"
)

// CanonMode says which components of a path must exist.
type CanonMode int

const (
	CanExisting   CanonMode = iota // every component (realpath -e, readlink -e)
	CanAllButLast                  // all but the last (realpath, readlink -f)
	CanMissing                     // none (realpath -m, readlink -m)
)

// maxHops is Linux's limit of symlinks followed in one lookup.
const maxHops = 40

// Canon resolves paths the way gnulib's canonicalize_filename_mode does,
// over the sandbox filesystem.
type Canon struct {
	FS  builtins.FS
	Dir string // working directory, absolute
	// Mode says which components must exist.
	Mode CanonMode
	// NoLinks leaves symlinks unresolved (realpath -s).
	NoLinks bool
	// Logical resolves ".." before symlinks (realpath -L).
	Logical bool
}

func splitComponents(p string) []string {
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Resolve returns the canonical absolute form of name.
func (cn Canon) Resolve(name string) (string, error) {
	if name == "" {
		return "", syscall.ENOENT
	}
	full := name
	if !path.IsAbs(full) {
		full = strings.TrimSuffix(cn.Dir, "/") + "/" + full
	}
	trailing := strings.HasSuffix(full, "/")
	if cn.Logical {
		full = path.Clean(full)
	}
	rest := splitComponents(full)
	resolved := "/"
	hops := 0
	for len(rest) > 0 {
		comp := rest[0]
		rest = rest[1:]
		if comp == "." {
			continue
		}
		if comp == ".." {
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, comp)
		// more: something follows this component (a trailing slash counts).
		more := len(rest) > 0 || trailing
		fi, _, err := cn.FS.LstatIfPossible(next)
		if err != nil {
			if cn.Mode == CanMissing || cn.Mode == CanAllButLast && onlyDots(rest) && builtins.IsNotExist(err) {
				resolved = next
				continue
			}
			return "", unwrap(err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 && !cn.NoLinks {
			if hops++; hops > maxHops {
				if cn.Mode != CanMissing {
					return "", syscall.ELOOP
				}
				// -m keeps a looping link as a plain component.
				resolved = next
				continue
			}
			target, err := cn.FS.ReadlinkIfPossible(next)
			if err != nil {
				return "", unwrap(err)
			}
			if strings.HasPrefix(target, "/") {
				resolved = "/"
			}
			if strings.HasSuffix(target, "/") && len(rest) == 0 {
				trailing = true
			}
			rest = append(splitComponents(target), rest...)
			continue
		}
		if !fi.IsDir() && more && cn.Mode != CanMissing && fi.Mode()&fs.ModeSymlink == 0 {
			return "", syscall.ENOTDIR
		}
		resolved = next
	}
	return resolved, nil
}

func onlyDots(rest []string) bool {
	for _, r := range rest {
		if r != "." {
			return false
		}
	}
	return true
}

func unwrap(err error) error {
	for {
		switch e := err.(type) {
		case *fs.PathError:
			err = e.Err
		default:
			return err
		}
	}
}

// Physical returns the physical absolute path of name: its directory with
// every symlink resolved, then its last component, itself resolved only
// when followLast is set. Missing components are kept as they are.
func Physical(fsys builtins.FS, dir, name string, followLast bool) string {
	cn := Canon{FS: fsys, Dir: dir, Mode: CanMissing}
	if followLast {
		p, _ := cn.Resolve(name)
		return p
	}
	trimmed := strings.TrimRight(name, "/")
	if trimmed == "" {
		return "/"
	}
	base := path.Base(trimmed)
	if base == "." || base == ".." {
		p, _ := cn.Resolve(name)
		return p
	}
	d := path.Dir(trimmed)
	if !path.IsAbs(trimmed) && !strings.Contains(trimmed, "/") {
		d = "."
	}
	p, _ := cn.Resolve(d)
	return path.Join(p, base)
}

// RelPath returns the path of target relative to the directory from; both
// are clean absolute paths.
func RelPath(from, target string) string {
	f := splitComponents(from)
	t := splitComponents(target)
	i := 0
	for i < len(f) && i < len(t) && f[i] == t[i] {
		i++
	}
	var parts []string
	for j := i; j < len(f); j++ {
		parts = append(parts, "..")
	}
	parts = append(parts, t[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

// IsUnder reports whether p is dir or lies below it (clean absolute paths).
func IsUnder(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

var errNotDir error = syscall.ENOTDIR

// Lstat is c.Lstat with the kernel's treatment of a trailing slash: the
// name must then be a directory (a symlink to one is followed).
func Lstat(c *builtins.Call, name string) (fs.FileInfo, error) {
	if len(name) > 1 && strings.HasSuffix(name, "/") {
		fi, err := c.Stat(name)
		if err == nil && !fi.IsDir() {
			return nil, &fs.PathError{Op: "lstat", Path: name, Err: syscall.ENOTDIR}
		}
		return fi, err
	}
	return c.Lstat(name)
}

// Stat is c.Stat with the kernel's treatment of a trailing slash.
func Stat(c *builtins.Call, name string) (fs.FileInfo, error) {
	fi, err := c.Stat(name)
	if err == nil && !fi.IsDir() && len(name) > 1 && strings.HasSuffix(name, "/") {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: syscall.ENOTDIR}
	}
	return fi, err
}

// ErrNotDir and ErrExist are the errno values commands report.
var (
	ErrNotDir error = syscall.ENOTDIR
	ErrExist  error = syscall.EEXIST
)
