package meta

import (
	"context"
	"io/fs"
	"reflect"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

type info struct {
	mode fs.FileMode
	size int64
}

func (i info) Name() string       { return "x" }
func (i info) Size() int64        { return i.size }
func (i info) Mode() fs.FileMode  { return i.mode }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.mode.IsDir() }
func (i info) Sys() any           { return nil }

func TestBlocks(t *testing.T) {
	for _, c := range []struct {
		fi   info
		want int64
	}{
		{info{0o644, 0}, 0}, {info{0o644, 1}, 8}, {info{0o644, 4096}, 8}, {info{0o644, 4097}, 16},
		{info{fs.ModeDir | 0o755, 4096}, 8}, {info{fs.ModeDir | 0o755, 0}, 8},
		{info{fs.ModeSymlink | 0o777, 5}, 0}, {info{fs.ModeSymlink | 0o777, 80}, 8},
		{info{fs.ModeDevice | fs.ModeCharDevice | 0o666, 0}, 0},
	} {
		if got := Blocks(c.fi); got != c.want {
			t.Errorf("Blocks(%v, %d) = %d, want %d", c.fi.mode, c.fi.size, got, c.want)
		}
	}
}

func TestOwnersAndMounts(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"a/b": "x"}}
	fsys := env.NewFS()
	c := &builtins.Call{Args: []string{"x"}, Env: []string{"USER=bob"}, Dir: "/work", FS: fsys}
	if o := OwnerOf(c, "/work/a"); o != (Owner{1000, 1000, "bob", "bob"}) {
		t.Errorf("owner: %+v", o)
	}
	if o := OwnerOf(c, "/dev/null"); o.User != "root" || o.UID != 0 {
		t.Errorf("root owner: %+v", o)
	}
	if got := Mounts(context.Background(), c); !reflect.DeepEqual(got, []string{"/", "/work"}) {
		t.Errorf("Mounts: %q", got)
	}
	if MountPoint(c, "/work/a/b") != "/work" || MountPoint(c, "/tmp") != "/" {
		t.Error("MountPoint")
	}
	if n := Nlink(c, "/work", mustStat(t, fsys, "/work")); n != 3 {
		t.Errorf("Nlink(/work) = %d", n)
	}
	st := FileSystem(context.Background(), c, "/work/a")
	if st.MountPoint != "/work" || st.Type != "tmpfs" || st.Blocks-st.Free != 3 {
		t.Errorf("FileSystem: %+v", st)
	}
	a1, a2 := Ino("/work/a"), Ino("/work/a") // stable across calls
	if a1 == Ino("/work/b") || a1 != a2 {
		t.Error("Ino")
	}
}

func mustStat(t *testing.T, fsys builtins.FS, p string) fs.FileInfo {
	fi, err := fsys.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
