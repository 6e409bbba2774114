package overlayfs

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

func digest(t testing.TB, root string) string {
	var lines []string
	filepath.Walk(root, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		line := fmt.Sprintf("%s %v %d", rel, info.Mode(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		} else if info.Mode()&fs.ModeSymlink != 0 {
			tg, _ := os.Readlink(p)
			line += " -> " + tg
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func baseDir(t testing.TB) string {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a/b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a/b/f.txt"), []byte("base file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "top.txt"), []byte("top\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a/b/f.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range []string{"a/b/f.txt", "top.txt", "a/b", "a", "."} {
		os.Chtimes(filepath.Join(dir, p), old, old)
	}
	return dir
}

func newOverlay(t testing.TB, dir string) *Overlay {
	host, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	return NewOverlay(host, NewMemFs(&Quota{}))
}

func readAll(t testing.TB, fsys Layer, name string) string {
	f, err := fsys.Open(name)
	if err != nil {
		return "ERR " + err.Error()
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	return string(b)
}

func TestOverlayCopyOnWrite(t *testing.T) {
	dir := baseDir(t)
	before := digest(t, dir)
	o := newOverlay(t, dir)
	f, err := o.OpenFile("/a/b/f.txt", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("appended\n"))
	f.Close()
	if got := readAll(t, o, "/a/b/f.txt"); got != "base file\nappended\n" {
		t.Fatalf("got %q", got)
	}
	if err := o.Remove("/top.txt"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := o.LstatIfPossible("/top.txt"); !os.IsNotExist(err) {
		t.Fatalf("whiteout: %v", err)
	}
	if err := o.Rename("/a", "/moved"); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, o, "/moved/b/f.txt"); got != "base file\nappended\n" {
		t.Fatalf("after rename %q", got)
	}
	if _, _, err := o.LstatIfPossible("/a"); !os.IsNotExist(err) {
		t.Fatal("old name still visible")
	}
	if err := o.Mkdir("/a", 0o755); err != nil {
		t.Fatal(err)
	}
	entries, _ := o.ReadDir("/a")
	if len(entries) != 0 {
		t.Fatalf("recreated dir shows base entries: %v", entries)
	}
	if err := o.Chmod("/moved/b/f.txt", 0o400); err != nil {
		t.Fatal(err)
	}
	if err := RemoveAll(o, "/"); err != nil {
		t.Fatal(err)
	}
	if entries, _ := o.ReadDir("/"); len(entries) != 0 {
		t.Fatalf("rm -rf / left %v", entries)
	}
	if after := digest(t, dir); after != before {
		t.Fatalf("base changed:\n%s\n---\n%s", before, after)
	}
}

func TestOverlayDirectoryOrderAndSymlinks(t *testing.T) {
	dir := baseDir(t)
	o := newOverlay(t, dir)
	host, _ := NewHostFs(dir, true)
	defer host.Close()
	native, _ := host.ReadDir("/")
	merged, _ := o.ReadDir("/")
	if len(native) != len(merged) {
		t.Fatalf("listing differs")
	}
	for i := range native {
		if native[i].Name() != merged[i].Name() {
			t.Fatalf("order changed at %d", i)
		}
	}
	if target, err := o.ReadlinkIfPossible("/link"); err != nil || target != "a/b/f.txt" {
		t.Fatalf("readlink %q %v", target, err)
	}
	if fi, err := o.Stat("/link"); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("stat through link: %v", err)
	}
	if err := o.SymlinkIfPossible("/top.txt", "/abs"); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, o, "/top.txt"); got != "top\n" {
		t.Fatal(got)
	}
}

// TestHostFsContainsEscapes: a host layer never reads outside its root,
// whatever the path or the links planted in it, and never names host paths.
func TestHostFsContainsEscapes(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "vol")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(parent, "secret"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret", filepath.Join(dir, "rel")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(parent, "secret"), filepath.Join(dir, "abs")); err != nil {
		t.Fatal(err)
	}
	h, err := NewHostFs(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, p := range []string{"/../secret", "../secret", "/rel", "/abs", "rel/x", "/abs/../secret"} {
		f, err := h.Open(p)
		if err == nil {
			b, _ := io.ReadAll(f)
			f.Close()
			t.Errorf("%s opened: %q", p, b)
			continue
		}
		if strings.Contains(err.Error(), parent) {
			t.Errorf("%s: error shows host path: %v", p, err)
		}
	}
	if fi, err := h.Stat("/abs"); err == nil {
		t.Errorf("stat through absolute link: %v", fi.Name())
	}
	// The read fast paths (openat2 on Linux, os.Root elsewhere) refuse
	// the same escapes.
	if err := os.MkdirAll(filepath.Join(parent, "outdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outdir", filepath.Join(dir, "reldir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(parent, "outdir"), filepath.Join(dir, "absdir")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/rel", "/abs", "/reldir", "/absdir", "/reldir/x", "/absdir/x", "/absdir/../secret"} {
		if f, err := h.OpenFollow(p); err == nil {
			f.Close()
			t.Errorf("OpenFollow %s escaped", p)
		}
		if _, err := h.StatFollow(p); err == nil {
			t.Errorf("StatFollow %s escaped", p)
		}
		if _, err := h.ReadDir(p); err == nil {
			t.Errorf("ReadDir %s escaped", p)
		}
		if _, err := h.ReadDirTypes(p); err == nil {
			t.Errorf("ReadDirTypes %s escaped", p)
		}
	}
	for _, p := range []string{"/reldir/x", "/absdir/x", "/absdir/../secret"} {
		if _, err := h.LstatFollowParents(p); err == nil {
			t.Errorf("LstatFollowParents %s escaped", p)
		}
		if _, _, err := h.LstatIfPossible(p); err == nil {
			t.Errorf("LstatIfPossible %s escaped", p)
		}
	}
	if f, err := h.Create("/../escape"); err == nil {
		f.Close() // cleaned to the root's own /escape
	}
	if _, err := os.Stat(filepath.Join(parent, "escape")); err == nil {
		t.Error("file written outside the root")
	}
}

// TestReadDirTypes: the type-only listing names the same entries, in the
// same order and with the same types, as the full one, on every layer.
func TestReadDirTypes(t *testing.T) {
	dir := baseDir(t)
	if err := os.Mkdir(filepath.Join(dir, "a", "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, "a", "dangling")); err != nil {
		t.Fatal(err)
	}
	host, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	o := NewOverlay(host, NewMemFs(&Quota{}))
	o.Remove("/top.txt")
	if err := o.Mkdir("/a/new", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, layer := range []Layer{host, o} {
		for _, d := range []string{"/", "/a", "/a/b"} {
			full, err := ReadDir(layer, d)
			if err != nil {
				t.Fatal(err)
			}
			types, err := ReadDirTypes(layer, d)
			if err != nil {
				t.Fatal(err)
			}
			var want, got []string
			for _, e := range full {
				want = append(want, e.Name()+" "+e.Mode().Type().String())
			}
			for _, e := range types {
				got = append(got, e.Name()+" "+e.Mode().Type().String())
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%T %s: types %v, full %v", layer, d, got, want)
			}
		}
	}
	if _, err := host.ReadDirTypes("/top.txt"); err == nil {
		t.Error("listed a file")
	}
	if _, err := host.ReadDirTypes("/nosuch"); !os.IsNotExist(err) {
		t.Errorf("missing directory: %v", err)
	}
}

// TestHostFileListsInsideItself: a directory opened from the host layer
// lists and states its own entries, whatever the process's working
// directory holds under the same names.
func TestHostFileListsInsideItself(t *testing.T) {
	dir := baseDir(t)
	host, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	cwd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cwd, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, "b", "f.txt"), make([]byte, 12345), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(cwd)
	f, err := host.Open("/a/b")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		t.Fatal("not a ReadDirFile")
	}
	entries, err := rd.ReadDir(-1)
	if err != nil || len(entries) != 1 {
		t.Fatal(entries, err)
	}
	fi, err := entries[0].Info()
	if err != nil || fi.Size() != int64(len("base file\n")) {
		t.Errorf("entry states %v %v, want the layer's f.txt", fi, err)
	}
}

// TestHostFsCloseWhileInUse: closing a layer that calls still use is safe
// (run with -race), and afterwards nothing resolves through a descriptor
// number the process may have reused for another directory.
func TestHostFsCloseWhileInUse(t *testing.T) {
	dir := baseDir(t)
	host, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				host.StatFollow("/a/b/f.txt")
				if f, err := host.OpenFollow("/top.txt"); err == nil {
					f.Close()
				}
			}
		})
	}
	host.Close()
	wg.Wait()
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "top.txt"), []byte("other"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(other) // likely takes the closed descriptor's number
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if f, err := host.OpenFollow("/top.txt"); err == nil {
		b, _ := io.ReadAll(f)
		f.Close()
		t.Errorf("closed layer still opens files: %q", b)
	}
}

// TestHostInfoMatchesOs: the stat results of the host layer agree with
// the os package's on mode, size and time.
func TestHostInfoMatchesOs(t *testing.T) {
	dir := baseDir(t)
	if err := os.Chmod(filepath.Join(dir, "a"), 0o2755|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	host, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	for _, p := range []string{"/a", "/a/b/f.txt", "/top.txt", "/link"} {
		want, err := os.Lstat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := host.LstatIfPossible(p)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name() != want.Name() || got.Mode() != want.Mode() || got.Size() != want.Size() || !got.ModTime().Equal(want.ModTime()) {
			t.Errorf("%s: got %s %v %d %v, want %s %v %d %v", p, got.Name(), got.Mode(), got.Size(), got.ModTime(), want.Name(), want.Mode(), want.Size(), want.ModTime())
		}
	}
	if fi, err := host.StatFollow("/link"); err != nil || fi.Size() != int64(len("base file\n")) || fi.Name() != "link" {
		t.Errorf("stat of link: %v %v", fi, err)
	}
}

// FuzzOverlay runs random operation sequences on an overlay: the base
// must stay byte-identical and nothing may panic.
func FuzzOverlay(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("rm -rf and rename everything"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		dir := baseDir(t)
		before := digest(t, dir)
		host, err := NewHostFs(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		defer host.Close()
		o := NewOverlay(host, smallChunks(NewMemFs(&Quota{})))
		names := []string{"/", "/a", "/a/b", "/a/b/f.txt", "/top.txt", "/link", "/new", "/a/new", "/moved", "/../x", "/a/b/../../top.txt"}
		for i := 0; i+2 < len(ops); i += 3 {
			p := names[int(ops[i+1])%len(names)]
			q := names[int(ops[i+2])%len(names)]
			switch ops[i] % 12 {
			case 0:
				o.Remove(p)
			case 1:
				RemoveAll(o, p)
			case 2:
				o.Rename(p, q)
			case 3:
				o.Mkdir(p, 0o755)
			case 4:
				if fh, err := o.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); err == nil {
					fh.Write(ops)
					fh.Close()
				}
			case 5:
				if fh, err := o.OpenFile(p, os.O_RDWR|os.O_APPEND, 0); err == nil {
					fh.Write([]byte("x"))
					fh.Close()
				}
			case 6:
				o.Chmod(p, fs.FileMode(ops[i+1])<<1)
			case 7:
				o.Chtimes(p, time.Unix(int64(ops[i+2]), 0), time.Unix(int64(ops[i+2]), 0))
			case 8:
				o.SymlinkIfPossible(q, p)
			case 9:
				o.ReadDir(p)
			case 10:
				readAll(t, o, p)
			case 11:
				o.Stat(p)
			}
		}
		if after := digest(t, dir); after != before {
			t.Fatalf("base changed by %v", ops)
		}
	})
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"": "/", "/": "/", "a": "/a", "/a": "/a", "/a/b": "/a/b", "/a/": "/a", "//a": "/a",
		"/a//b": "/a/b", "/./a": "/a", "/a/.": "/a", "/a/..": "/", "/..": "/", "/a/../b": "/b",
		"/.a/..b/...": "/.a/..b/...", "a/b/": "/a/b", ".": "/", "/a/b/c.go": "/a/b/c.go",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}
