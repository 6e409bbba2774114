// Package meta supplies the inode metadata the guest filesystem does not
// keep, the way the file commands (ls, stat, du, tree) need it:
//
//   - owners: what chown recorded in the namespace, else the sandbox user
//     (uid/gid 1000, named by $USER, default "user") for everything but
//     the synthetic root (/, /bin, /dev, /usr, /tmp, /home), which root
//     owns;
//   - disk usage: as ext4 with 4 KiB blocks would allocate it,
//     ceil(size/4096) blocks for files and directories, none for short
//     symlinks and devices;
//   - inode numbers: a stable hash of the file's physical guest path, or
//     the file's own for a file with several names;
//   - link counts: the names of a file (the host's count on host
//     volumes), 2 plus the subdirectories for a directory;
//   - times: the host's access and change times on host volumes; in
//     memory only the modification time exists, and it stands for all
//     three. Birth times are unknown.
package meta

import (
	"hash/fnv"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/internal/lazy"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// BlockSize is the filesystem block size the sandbox reports.
const BlockSize = 4096

// Size is the size of a file as stat reports it; the synthetic
// directories of the sandbox (/bin, /dev/fd) count as one block.
func Size(fi fs.FileInfo) int64 {
	if fi.IsDir() && fi.Size() == 0 {
		return BlockSize
	}
	return fi.Size()
}

// Blocks is the number of 512-byte blocks fi occupies on disk.
func Blocks(fi fs.FileInfo) int64 {
	m := fi.Mode()
	switch {
	case m.IsRegular(), m.IsDir():
		return (Size(fi) + BlockSize - 1) / BlockSize * (BlockSize / 512)
	case m&fs.ModeSymlink != 0:
		// ext4 keeps targets shorter than 60 bytes in the inode.
		if fi.Size() >= 60 {
			return BlockSize / 512
		}
	}
	return 0
}

// Resolver is implemented by filesystems that can name the physical path
// of a file (the sandbox namespace does).
type Resolver interface {
	Resolve(name string, followLast bool) (string, error)
}

// Physical returns the physical absolute guest path of abs, not following
// the last component; abs itself, cleaned, when it cannot be resolved.
func Physical(c *builtins.Call, abs string) string {
	if r, ok := c.FS.(Resolver); ok {
		if p, err := r.Resolve(abs, false); err == nil {
			return p
		}
	}
	return path.Clean(abs)
}

// Ino is the inode number reported for the file at physical path p.
func Ino(p string) uint64 {
	if p == "/" {
		return 2
	}
	h := fnv.New64a()
	h.Write([]byte(p))
	return 100000 + h.Sum64()%90000000
}

// rootOwned lists the synthetic parts of the namespace owned by root.
func rootOwned(p string) bool {
	switch p {
	case "/", "/bin", "/usr", "/usr/bin", "/dev", "/tmp", "/home":
		return true
	}
	return strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/bin/") || strings.HasPrefix(p, "/usr/bin/")
}

// Owner is a file's owner and group.
type Owner struct {
	UID, GID    int
	User, Group string
}

// UserName is the sandbox user's name: $USER, else "user".
func UserName(c *builtins.Call) string {
	if u := c.Getenv("USER"); u != "" {
		return u
	}
	return "user"
}

// ownerTable is implemented by the sandbox namespace, which records the
// owners chown gives files.
type ownerTable interface {
	Owner(name string) (uid, gid int, ok bool)
}

// OwnerOf returns the owner of the file at p: what chown recorded, else
// root for the synthetic root and the sandbox user for the rest. Users
// and groups without a name in the sandbox's table have User or Group "".
func OwnerOf(c *builtins.Call, p string) Owner {
	o := Owner{1000, 1000, "", ""}
	if rootOwned(p) {
		o.UID, o.GID = 0, 0
	}
	if t, ok := c.FS.(ownerTable); ok {
		if uid, gid, found := t.Owner(p); found {
			if uid >= 0 {
				o.UID = uid
			}
			if gid >= 0 {
				o.GID = gid
			}
		}
	}
	o.User, o.Group = IDName(c, o.UID), IDName(c, o.GID)
	return o
}

// IDName is the name of a user or group id in the sandbox's table (root,
// and the sandbox user with its group), "" for other ids.
func IDName(c *builtins.Call, id int) string {
	switch id {
	case 0:
		return "root"
	case 1000:
		return UserName(c)
	}
	return ""
}

// LookupID finds a user or group by name or number in the sandbox's table.
func LookupID(c *builtins.Call, name string) (int, bool) {
	switch name {
	case "root":
		return 0, true
	case UserName(c):
		return 1000, true
	}
	return -1, false
}

// InoOf is the inode number reported for fi at physical path p: the
// file's own when it has several names (they share it), else Ino(p).
func InoOf(p string, fi fs.FileInfo) uint64 {
	if fi != nil && !fi.IsDir() {
		if st, ok := overlayfs.SysStat(fi); ok && st.Nlink > 1 && st.Ino != 0 {
			return st.Ino
		}
	}
	return Ino(p)
}

// Atime is the last access time.
func Atime(fi fs.FileInfo) time.Time {
	if st, ok := overlayfs.SysStat(fi); ok && !st.Atime.IsZero() {
		return st.Atime
	}
	return fi.ModTime()
}

// Ctime is the last status change time.
func Ctime(fi fs.FileInfo) time.Time {
	if st, ok := overlayfs.SysStat(fi); ok && !st.Ctime.IsZero() {
		return st.Ctime
	}
	return fi.ModTime()
}

// Nlink is the link count of the file at abs (guest path, used to count
// a directory's subdirectories).
func Nlink(c *builtins.Call, abs string, fi fs.FileInfo) uint64 {
	if st, ok := overlayfs.SysStat(fi); ok && st.Nlink > 0 {
		return st.Nlink
	}
	if !fi.IsDir() {
		return 1
	}
	entries, err := c.FS.ReadDir(abs)
	if err != nil {
		return 2
	}
	n := uint64(2)
	for _, e := range entries {
		if e.IsDir() {
			n++
		}
	}
	return n
}

// Device numbers of the synthetic character devices.
var devNumbers = lazy.Value[map[string][2]uint32]{New: func() map[string][2]uint32 {
	return map[string][2]uint32{
		"/dev/null": {1, 3}, "/dev/zero": {1, 5}, "/dev/random": {1, 8}, "/dev/urandom": {1, 9},
		"/dev/stdin": {136, 0}, "/dev/stdout": {136, 0}, "/dev/stderr": {136, 0},
		"/dev/fd/0": {136, 0}, "/dev/fd/1": {136, 0}, "/dev/fd/2": {136, 0},
	}
}}

// Rdev returns the major and minor numbers of a device file.
func Rdev(p string, fi fs.FileInfo) (uint32, uint32) {
	if fi.Mode()&fs.ModeDevice == 0 {
		return 0, 0
	}
	if d, ok := devNumbers.Get()[p]; ok {
		return d[0], d[1]
	}
	if st, ok := overlayfs.SysStat(fi); ok {
		u := st.Rdev
		return uint32((u>>8)&0xfff | (u>>32)&^0xfff), uint32(u&0xff | (u>>12)&^0xff)
	}
	return 0, 0
}

// mounter is implemented by the sandbox namespace: it names the volume
// holding a path.
type mounter interface {
	MountOf(name string) (volumes.Mount, error)
}

// MountPoint is the guest path of the volume holding abs ("/" for the
// synthetic root).
func MountPoint(c *builtins.Call, abs string) string {
	if m, ok := c.FS.(mounter); ok {
		if mi, err := m.MountOf(abs); err == nil {
			return mi.GuestPath
		}
	}
	return "/"
}

// Mount describes the volume holding abs, when the filesystem knows.
func Mount(c *builtins.Call, abs string) (volumes.Mount, bool) {
	if m, ok := c.FS.(mounter); ok {
		if mi, err := m.MountOf(abs); err == nil {
			return mi, true
		}
	}
	return volumes.Mount{GuestPath: "/"}, false
}

// Dev is the device number of the filesystem holding abs: one per volume.
func Dev(c *builtins.Call, abs string) uint64 {
	mp := MountPoint(c, abs)
	if mp == "/" {
		return 0x17
	}
	h := fnv.New32a()
	h.Write([]byte(mp))
	return 0x800 | uint64(h.Sum32()%0xf0) + 0x10
}

// The mode functions live in coreutils/internal/modes; these forward to
// them for the packages that still call them here (tar).

// Executable reports whether a regular file has any execute bit.
func Executable(m fs.FileMode) bool { return m.IsRegular() && m&0o111 != 0 }

// Stat is stat(2) when follow is set and lstat(2) otherwise: the choice
// each command with -L/-P, -h or --no-dereference makes for its operands.
func Stat(c *builtins.Call, name string, follow bool) (fs.FileInfo, error) {
	if follow {
		return c.Stat(name)
	}
	return c.Lstat(name)
}
