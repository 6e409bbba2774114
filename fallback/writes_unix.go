//go:build linux || darwin

package fallback

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

func keyOf(path string, fi fs.FileInfo) fileKey {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	}
	return fileKey{path: path}
}

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
