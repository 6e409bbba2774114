package aferovfs_test

import (
	"io/fs"
	"testing"

	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/vfs"
	"github.com/bashbox/bashbox/vfs/aferovfs"
	"github.com/spf13/afero"
)

func TestFromAfero(t *testing.T) {
	mm := afero.NewMemMapFs()
	if err := afero.WriteFile(mm, "/d/f", []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	v := aferovfs.FromAfero(mm)
	b, err := vfs.ReadFile(v, "/d/f")
	if err != nil || string(b) != "hi" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	f, err := v.Open("/d/nosuch")
	if err == nil || f != nil {
		// A failed open must give a nil interface, not a typed nil
		// that a caller's f != nil check would take for a file.
		t.Fatalf("Open of a missing file = %#v, %v", f, err)
	}
	if _, ok := v.(vfs.Symlinker); ok {
		t.Fatal("MemMapFs has no symlinks, but the adapter claims them")
	}
	// OsFs has symlinks: the adapter keeps them.
	if _, ok := aferovfs.FromAfero(afero.NewOsFs()).(vfs.Symlinker); !ok {
		t.Fatal("the adapter dropped OsFs's symlink support")
	}
	if aferovfs.ToAfero(v) != mm {
		t.Fatal("ToAfero(FromAfero(x)) is not x")
	}
}

func TestToAfero(t *testing.T) {
	m := overlayfs.NewMemFs(nil)
	a := aferovfs.ToAfero(m)
	if err := afero.WriteFile(a, "/f", []byte("layer"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := a.(afero.Symlinker).SymlinkIfPossible("/f", "/l"); err != nil {
		t.Fatal(err)
	}
	fi, _, err := a.(afero.Symlinker).LstatIfPossible("/l")
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("lstat /l = %v, %v", fi, err)
	}
	b, err := afero.ReadFile(a, "/f")
	if err != nil || string(b) != "layer" {
		t.Fatalf("afero.ReadFile through the adapter = %q, %v", b, err)
	}
	if aferovfs.FromAfero(a) != vfs.FS(m) {
		t.Fatal("FromAfero(ToAfero(x)) is not x")
	}
}
