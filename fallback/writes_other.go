//go:build !linux && !darwin

package fallback

import "io/fs"

func keyOf(path string, _ fs.FileInfo) fileKey { return fileKey{path: path} }

// fsFree: this system's free space is not sampled; the after-run charge
// and the file size limit remain.
type fsFree map[uint64][2]int64

func freeSpace([]string) fsFree { return nil }

func (fsFree) lostSince(fsFree) (int64, int64) { return 0, 0 }
