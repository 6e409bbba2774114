package overlayfs

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// hostStat reads the stat structures host files carry: os's (syscall)
// and the one directory listings fill (x/sys/unix).
func hostStat(sys any) (Stat, bool) {
	switch s := sys.(type) {
	case *syscall.Stat_t:
		if s != nil {
			return Stat{uint64(s.Dev), uint64(s.Ino), uint64(s.Nlink), s.Uid, s.Gid, uint64(s.Rdev), int64(s.Blocks),
				time.Unix(s.Atim.Unix()), time.Unix(s.Ctim.Unix())}, true
		}
	case *unix.Stat_t:
		if s != nil {
			return Stat{uint64(s.Dev), uint64(s.Ino), uint64(s.Nlink), s.Uid, s.Gid, uint64(s.Rdev), int64(s.Blocks),
				time.Unix(s.Atim.Unix()), time.Unix(s.Ctim.Unix())}, true
		}
	}
	return Stat{}, false
}
