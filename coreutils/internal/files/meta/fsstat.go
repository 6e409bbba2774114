package meta

import (
	"context"
	"hash/fnv"
	"path"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/volumes"
)

// The sandbox does not expose the size of the disks behind its volumes,
// so every volume reports the same nominal capacity; what is used is
// measured by walking the volume (as du would count it), up to a bound.
const (
	// Capacity is the nominal size of each volume, in bytes.
	Capacity = 8 << 30
	// InodeCapacity is the nominal number of inodes of each volume.
	InodeCapacity = 1 << 20
	// walkLimit bounds the entries counted when measuring a volume.
	walkLimit = 200000
)

// FSStat describes the filesystem (volume) holding a file.
type FSStat struct {
	MountPoint string
	Type       string // the df -T name
	StatType   string // the stat -f %T name
	Magic      uint64
	ID         uint64
	BlockSize  uint64
	Blocks     uint64 // in BlockSize units
	Free       uint64
	Avail      uint64
	Files      uint64
	FilesFree  uint64
	ReadOnly   bool
}

// FileSystem describes the volume holding abs.
func FileSystem(ctx context.Context, c *builtins.Call, abs string) FSStat {
	m, _ := Mount(c, abs)
	st := FSStat{MountPoint: m.GuestPath, BlockSize: BlockSize}
	switch {
	case m.GuestPath == "/" || m.Mode == volumes.Ephemeral:
		st.Type, st.StatType, st.Magic = "tmpfs", "tmpfs", 0x01021994
	case m.Mode == volumes.ReadOnly:
		st.Type, st.StatType, st.Magic = "overlay", "overlayfs", 0x794c7630
	default:
		st.Type, st.StatType, st.Magic = "bashbox", "bashbox", 0x62617368
	}
	h := fnv.New64a()
	h.Write([]byte(m.GuestPath))
	st.ID = h.Sum64()
	used, files := measure(ctx, c, m.GuestPath)
	st.Blocks = Capacity / BlockSize
	usedBlocks := (used + BlockSize - 1) / BlockSize
	if usedBlocks > st.Blocks {
		st.Blocks = usedBlocks
	}
	st.Free = st.Blocks - usedBlocks
	st.Avail = st.Free
	st.Files = InodeCapacity
	if files > st.Files {
		st.Files = files
	}
	st.FilesFree = st.Files - files
	return st
}

// measure walks the volume at root (not crossing into other volumes) and
// returns the bytes its files occupy on disk and its number of entries.
func measure(ctx context.Context, c *builtins.Call, root string) (bytes, files uint64) {
	fi, _, err := c.FS.LstatIfPossible(root)
	if err != nil {
		return 0, 0
	}
	bytes = uint64(Blocks(fi)) * 512
	files = 1
	stack := []string{root}
	for len(stack) > 0 && files < walkLimit {
		if ctx.Err() != nil {
			break
		}
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		entries, err := c.FS.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := path.Join(dir, e.Name())
			if e.IsDir() {
				if p == "/bin" || p == "/usr/bin" || p == "/dev" || MountPoint(c, p) != root {
					continue // another volume
				}
				stack = append(stack, p)
			}
			files++
			bytes += uint64(Blocks(e)) * 512
		}
	}
	return bytes, files
}

// Mounts lists the mount points of the namespace: "/" and every volume,
// found by walking the synthetic root (volumes are mounted on directories
// of it).
func Mounts(ctx context.Context, c *builtins.Call) []string {
	out := []string{"/"}
	stack := []string{"/"}
	seen := 0
	for len(stack) > 0 && seen < walkLimit && ctx.Err() == nil {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		entries, err := c.FS.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			seen++
			if !e.IsDir() {
				continue
			}
			p := path.Join(dir, e.Name())
			if p == "/bin" || p == "/usr/bin" || p == "/dev" {
				continue
			}
			switch MountPoint(c, p) {
			case p:
				// A volume; its top level may hold volumes nested in it.
				out = append(out, p)
				stack = append(stack, p)
			case "/":
				stack = append(stack, p)
			}
		}
	}
	sortStrings(out)
	return dedupe(out)
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
