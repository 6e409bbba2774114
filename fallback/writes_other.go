//go:build !linux && !darwin

package fallback

import (
	"context"
	"io/fs"
	"path/filepath"
)

func keyOf(path string, _ fs.FileInfo) fileKey { return fileKey{path: path} }

// fsFree: this system's free space is not sampled; the after-run charge
// and the file size limit remain.
type fsFree map[uint64][2]int64

func freeSpace([]string) fsFree { return nil }

func (fsFree) lostSince(fsFree) (int64, int64) { return 0, 0 }

// walkRoot visits every entry below root, not following links; n counts
// the entries, for the checks of ctx.
func walkRoot(ctx context.Context, root string, n *int, visit func(fileKey, int64)) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil // vanished meanwhile, or unreadable: nothing to count
		}
		if *n++; *n%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		size := int64(0)
		if fi.Mode().IsRegular() {
			size = fi.Size()
		}
		visit(keyOf(p, fi), size)
		return nil
	})
}
