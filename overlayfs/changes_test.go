package overlayfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
	"testing"
)

// countingLayer counts what a base layer is asked.
type countingLayer struct {
	Layer
	calls atomic.Int64
}

func (c *countingLayer) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	c.calls.Add(1)
	return c.Layer.LstatIfPossible(name)
}

func (c *countingLayer) Open(name string) (File, error) {
	c.calls.Add(1)
	return c.Layer.Open(name)
}

func (c *countingLayer) ReadlinkIfPossible(name string) (string, error) {
	c.calls.Add(1)
	return c.Layer.ReadlinkIfPossible(name)
}

// Changes works from the overlay's own records: a change to one file of a
// large base asks the base about that file's path only, never lists it.
func TestChangesCostFollowsWhatChanged(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i))
		os.Mkdir(sub, 0o755)
		for j := range 20 {
			os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%02d", j)), []byte("x\n"), 0o644)
		}
	}
	host, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	base := &countingLayer{Layer: host}
	o := NewOverlay(base, NewMemFs(nil))
	f, err := o.OpenFile("/d07/f03", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("more\n"))
	f.Close()
	if err := o.Remove("/d09/f01"); err != nil {
		t.Fatal(err)
	}
	base.calls.Store(0)
	changes, err := o.Changes()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, fmt.Sprintf("%d %s", c.Op, c.Path))
	}
	want := fmt.Sprint([]string{fmt.Sprintf("%d /d07", Changed), fmt.Sprintf("%d /d07/f03", Changed), fmt.Sprintf("%d /d09", Changed), fmt.Sprintf("%d /d09/f01", Deleted)})
	if fmt.Sprint(got) != want {
		t.Fatalf("got %v want %v", got, want)
	}
	// One lstat per upper entry (d07, d07/f03, d09) and per whiteout.
	if n := base.calls.Load(); n > 5 {
		t.Fatalf("Changes asked the base %d times for 2 changes among 1,000 files", n)
	}
}

// A directory copied up for one change below it, then renamed, keeps the
// entries it still had in the base.
func TestRenamePartlyCopiedUpDir(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "d/e"), 0o755)
	os.WriteFile(filepath.Join(dir, "d/c"), []byte("c\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "d/e/f"), []byte("f\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "d/gone"), []byte("g\n"), 0o644)
	o := newOverlay(t, dir)
	f, _ := o.Create("/d/new")
	f.Close()
	if err := o.Remove("/d/gone"); err != nil {
		t.Fatal(err)
	}
	if err := o.Rename("/d", "/g"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range []string{"/g", "/g/e"} {
		entries, err := o.ReadDir(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			names = append(names, p+"/"+e.Name())
		}
	}
	sort.Strings(names)
	if got := fmt.Sprint(names); got != "[/g/c /g/e /g/e/f /g/new]" {
		t.Fatalf("renamed directory holds %s", got)
	}
	if got := readAll(t, o, "/g/e/f"); got != "f\n" {
		t.Fatalf("content %q", got)
	}
}
