package procutil

import (
	"io/fs"
	"path"
	"reflect"
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

// SysStat extracts the stat(2) fields of fi.Sys(), without importing
// syscall: by field name, whatever the platform's integer types.
func SysStat(fi fs.FileInfo) (Stat, bool) {
	sys := fi.Sys()
	if sys == nil {
		return Stat{}, false
	}
	v := reflect.ValueOf(sys)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return Stat{}, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return Stat{}, false
	}
	ino := v.FieldByName("Ino")
	if !ino.IsValid() {
		return Stat{}, false
	}
	var st Stat
	st.Dev = uintField(v, "Dev")
	st.Ino = uintField(v, "Ino")
	st.Nlink = uintField(v, "Nlink")
	st.Uid = uint32(uintField(v, "Uid"))
	st.Gid = uint32(uintField(v, "Gid"))
	st.Rdev = uintField(v, "Rdev")
	st.Blocks = int64(uintField(v, "Blocks"))
	st.Atime = timeField(v, "Atim", "Atimespec")
	st.Ctime = timeField(v, "Ctim", "Ctimespec")
	return st, true
}

func uintField(v reflect.Value, name string) uint64 {
	f := v.FieldByName(name)
	switch f.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return uint64(f.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return f.Uint()
	}
	return 0
}

func timeField(v reflect.Value, names ...string) time.Time {
	for _, name := range names {
		f := v.FieldByName(name)
		if f.IsValid() && f.Kind() == reflect.Struct {
			sec := f.FieldByName("Sec")
			nsec := f.FieldByName("Nsec")
			if sec.IsValid() && nsec.IsValid() {
				return time.Unix(sec.Int(), nsec.Int())
			}
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
