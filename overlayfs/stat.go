package overlayfs

import (
	"io/fs"
	"time"
)

// Stat holds what stat(2) adds to fs.FileInfo, when the layer reports it:
// files of host volumes carry all of it, files of memory layers only an
// identity and a link count once they have a second name.
type Stat struct {
	Dev, Ino, Nlink uint64
	Uid, Gid        uint32
	Rdev            uint64
	Blocks          int64
	Atime, Ctime    time.Time
}

// SysStat reads the stat fields of fi.Sys() for the types the layers
// produce: the host's stat structure and the memory layer's LinkSys.
func SysStat(fi fs.FileInfo) (Stat, bool) {
	if fi == nil {
		return Stat{}, false
	}
	switch s := fi.Sys().(type) {
	case *LinkSys:
		if s == nil {
			return Stat{}, false
		}
		return Stat{Ino: s.Ino, Nlink: s.Nlink}, true
	case nil:
		return Stat{}, false
	default:
		return hostStat(s)
	}
}

// Inode returns fi's inode number when the layer reports it.
func Inode(fi fs.FileInfo) (uint64, bool) {
	st, ok := SysStat(fi)
	return st.Ino, ok
}

// FileID identifies a file on its device.
type FileID struct{ Dev, Ino uint64 }

// Identity returns fi's device and inode when the layer reports them:
// two names with one identity are hard links of one file.
func Identity(fi fs.FileInfo) (FileID, bool) {
	st, ok := SysStat(fi)
	if !ok || st.Ino == 0 {
		return FileID{}, false
	}
	return FileID{st.Dev, st.Ino}, true
}
