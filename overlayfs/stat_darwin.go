package overlayfs

import (
	"syscall"
	"time"
)

// hostStat reads the stat structure os gives host files.
func hostStat(sys any) (Stat, bool) {
	s, ok := sys.(*syscall.Stat_t)
	if !ok || s == nil {
		return Stat{}, false
	}
	return Stat{
		Dev: uint64(s.Dev), Ino: s.Ino, Nlink: uint64(s.Nlink),
		Uid: s.Uid, Gid: s.Gid, Rdev: uint64(s.Rdev), Blocks: s.Blocks,
		Atime: time.Unix(s.Atimespec.Sec, s.Atimespec.Nsec),
		Ctime: time.Unix(s.Ctimespec.Sec, s.Ctimespec.Nsec),
	}, true
}
