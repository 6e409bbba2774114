package overlayfs

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/bashbox/bashbox/vfs"
)

// maxSymlinkHops is Linux's limit before ELOOP.
const maxSymlinkHops = 40

// LinkFS is what symlink resolution needs: lstat and readlink without
// following anything.
type LinkFS interface {
	vfs.Lstater
	vfs.LinkReader
}

// ResolveIn resolves the symlinks in name against fsys, treating absolute
// targets as paths of fsys itself, so a link can never leave it. With
// followLast false the final component is left as it is (lstat semantics).
// A missing final component is not an error: the returned path names where
// it would be. A missing or non-directory intermediate component is.
func ResolveIn(fsys LinkFS, name string, followLast bool) (string, error) {
	rest := splitPath(name)
	resolved := "/"
	hops := 0
	for len(rest) > 0 {
		part := rest[0]
		rest = rest[1:]
		if part == ".." {
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, part)
		if len(rest) == 0 && !followLast {
			return next, nil
		}
		fi, _, err := fsys.LstatIfPossible(next)
		if err != nil {
			if len(rest) == 0 && os.IsNotExist(err) {
				return next, nil
			}
			return next, underlying(err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if hops++; hops > maxSymlinkHops {
				return next, syscall.ELOOP
			}
			target, err := fsys.ReadlinkIfPossible(next)
			if err != nil {
				return next, underlying(err)
			}
			if strings.HasPrefix(target, "/") {
				resolved = "/"
			}
			rest = append(splitPath(target), rest...)
			continue
		}
		if len(rest) > 0 && !fi.IsDir() {
			return next, syscall.ENOTDIR
		}
		resolved = next
	}
	return resolved, nil
}

func splitPath(p string) []string {
	var parts []string
	for _, s := range strings.Split(p, "/") {
		if s != "" && s != "." {
			parts = append(parts, s)
		}
	}
	return parts
}
