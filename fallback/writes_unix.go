//go:build linux || darwin

package fallback

import (
	"context"
	"os"

	"golang.org/x/sys/unix"
)

// fsFree is the free space and free inodes of each file system holding a
// root, by device.
type fsFree map[uint64][2]int64

func freeSpace(roots []string) fsFree {
	out := fsFree{}
	for _, r := range roots {
		var st unix.Stat_t
		var sf unix.Statfs_t
		if unix.Stat(r, &st) != nil || unix.Statfs(r, &sf) != nil {
			return nil
		}
		out[uint64(st.Dev)] = [2]int64{int64(sf.Bavail) * int64(sf.Bsize), int64(sf.Ffree)}
	}
	return out
}

// lostSince sums what the file systems lost from base to now.
func (base fsFree) lostSince(now fsFree) (bytes, files int64) {
	for dev, b := range base {
		if n, ok := now[dev]; ok {
			bytes += max(0, b[0]-n[0])
			files += max(0, b[1]-n[1])
		}
	}
	return bytes, files
}

// walkRoot visits every entry below root, not following links; n counts
// the entries, for the checks of ctx. Each entry is stated relative to
// its directory's descriptor, so no path is resolved from the root again
// (a walk by path costs a lookup of every component for every file).
// What vanishes or cannot be read meanwhile is not counted.
func walkRoot(ctx context.Context, root string, n *int, visit func(fileKey, int64)) error {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	return walkDirFD(ctx, fd, n, visit)
}

// walkDirFD walks the directory open at fd, and closes it.
func walkDirFD(ctx context.Context, fd int, n *int, visit func(fileKey, int64)) error {
	dir := os.NewFile(uintptr(fd), "")
	defer dir.Close()
	for {
		names, err := dir.Readdirnames(1024)
		for _, name := range names {
			if *n++; *n%1024 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			var st unix.Stat_t
			if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
				continue
			}
			size := int64(0)
			switch st.Mode & unix.S_IFMT {
			case unix.S_IFREG:
				size = st.Size
			case unix.S_IFDIR:
				if child, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0); err == nil {
					visit(fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}, 0)
					if err := walkDirFD(ctx, child, n, visit); err != nil {
						return err
					}
					continue
				}
			}
			visit(fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}, size)
		}
		if err != nil || len(names) == 0 {
			return nil
		}
	}
}
