package procutil

import (
	"io/fs"
	"path"
	"reflect"
	"sync"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/overlayfs"
)

// Stat holds what the host's stat(2) adds to fs.FileInfo, when the
// filesystem reports it (files of host volumes do; memory layers do not).
type Stat struct {
	Dev, Ino, Nlink uint64
	Uid, Gid        uint32
	Rdev            uint64
	Blocks          int64
	Atime, Ctime    time.Time
}

// statFields caches, per Sys() type, the indexes of the stat fields.
type statFields struct {
	ok                                              bool
	dev, ino, nlink, uid, gid, rdev, blocks, at, ct []int
}

var fieldCache sync.Map // reflect.Type -> *statFields

func fieldsOf(t reflect.Type) *statFields {
	if v, ok := fieldCache.Load(t); ok {
		return v.(*statFields)
	}
	sf := &statFields{}
	idx := func(names ...string) []int {
		for _, n := range names {
			if f, ok := t.FieldByName(n); ok {
				return f.Index
			}
		}
		return nil
	}
	sf.ino = idx("Ino")
	sf.ok = sf.ino != nil
	sf.dev = idx("Dev")
	sf.nlink = idx("Nlink")
	sf.uid = idx("Uid")
	sf.gid = idx("Gid")
	sf.rdev = idx("Rdev")
	sf.blocks = idx("Blocks")
	sf.at = idx("Atim", "Atimespec")
	sf.ct = idx("Ctim", "Ctimespec")
	fieldCache.Store(t, sf)
	return sf
}

func sysStruct(fi fs.FileInfo) (reflect.Value, *statFields, bool) {
	sys := fi.Sys()
	if sys == nil {
		return reflect.Value{}, nil, false
	}
	v := reflect.ValueOf(sys)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}, nil, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, nil, false
	}
	sf := fieldsOf(v.Type())
	return v, sf, sf.ok
}

// SysStat extracts the stat(2) fields of fi.Sys(), without importing
// syscall: by field name, whatever the platform's integer types.
func SysStat(fi fs.FileInfo) (Stat, bool) {
	v, sf, ok := sysStruct(fi)
	if !ok {
		return Stat{}, false
	}
	var st Stat
	st.Dev = uintField(v, sf.dev)
	st.Ino = uintField(v, sf.ino)
	st.Nlink = uintField(v, sf.nlink)
	st.Uid = uint32(uintField(v, sf.uid))
	st.Gid = uint32(uintField(v, sf.gid))
	st.Rdev = uintField(v, sf.rdev)
	st.Blocks = int64(uintField(v, sf.blocks))
	st.Atime = timeField(v, sf.at)
	st.Ctime = timeField(v, sf.ct)
	return st, true
}

// Inode returns fi's inode number when the filesystem reports it.
func Inode(fi fs.FileInfo) (uint64, bool) {
	v, sf, ok := sysStruct(fi)
	if !ok {
		return 0, false
	}
	return uintField(v, sf.ino), true
}

func uintField(v reflect.Value, index []int) uint64 {
	if index == nil {
		return 0
	}
	f := v.FieldByIndex(index)
	switch f.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return uint64(f.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return f.Uint()
	}
	return 0
}

func timeField(v reflect.Value, index []int) time.Time {
	if index == nil {
		return time.Time{}
	}
	f := v.FieldByIndex(index)
	if f.Kind() == reflect.Struct {
		sec := f.FieldByName("Sec")
		nsec := f.FieldByName("Nsec")
		if sec.IsValid() && nsec.IsValid() {
			return time.Unix(sec.Int(), nsec.Int())
		}
	}
	return time.Time{}
}

// FileID identifies a file on its device.
type FileID struct{ Dev, Ino uint64 }

// Identity returns fi's device and inode when the filesystem reports them.
func Identity(fi fs.FileInfo) (FileID, bool) {
	st, ok := SysStat(fi)
	if !ok || st.Ino == 0 {
		return FileID{}, false
	}
	return FileID{st.Dev, st.Ino}, true
}

// resolver is implemented by the sandbox namespace.
type resolver interface {
	Resolve(name string, followLast bool) (string, error)
}

// Realpath returns the physical guest path of name (relative to c.Dir),
// every symlink followed.
func Realpath(c *builtins.Call, name string) (string, error) {
	abs := c.Abs(name)
	if r, ok := c.FS.(resolver); ok {
		return r.Resolve(abs, true)
	}
	p, err := overlayfs.ResolveIn(c.FS, abs, true)
	if err != nil {
		return p, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return path.Clean(p), nil
}

// SandboxUID and SandboxGID own every file of the sandbox; the user and
// group are both called SandboxUser.
const (
	SandboxUID  = 1000
	SandboxGID  = 1000
	SandboxUser = "user"
)

// ensure builtins.FS satisfies the resolver's needs.
var _ overlayfs.LinkFS = builtins.FS(nil)
