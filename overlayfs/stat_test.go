package overlayfs

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Hard links are one file by identity on both kinds of layer, and the
// host's listing and stat agree on it.
func TestIdentityOfHardLinks(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("host identities are read on Linux and macOS")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "other"), []byte("y"), 0o644)
	h, err := NewHostFs(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Link("/a", "/b"); err != nil {
		t.Fatal(err)
	}
	fa, _ := h.Stat("/a")
	fb, _ := h.Stat("/b")
	fo, _ := h.Stat("/other")
	ia, okA := Identity(fa)
	ib, okB := Identity(fb)
	io, okO := Identity(fo)
	if !okA || !okB || !okO || ia != ib || ia == io {
		t.Fatalf("host identities a=%v,%v b=%v,%v other=%v,%v", ia, okA, ib, okB, io, okO)
	}
	st, ok := SysStat(fa)
	if !ok || st.Nlink != 2 || st.Atime.IsZero() || st.Ctime.IsZero() {
		t.Fatalf("host stat %+v %v", st, ok)
	}
	infos, err := ReadDir(h, "/")
	if err != nil {
		t.Fatal(err)
	}
	for _, fi := range infos {
		if fi.Name() == "b" {
			if got, ok := Identity(fi); !ok || got != ia {
				t.Fatalf("listed b: %v %v, want %v", got, ok, ia)
			}
		}
	}

	m := NewMemFs(nil)
	for _, n := range []string{"/a", "/c"} {
		f, _ := m.Create(n)
		f.Close()
	}
	if _, ok := Identity(mustLstat(t, m, "/a")); ok {
		t.Fatal("a memory file with one name has an identity")
	}
	if err := m.Link("/a", "/b"); err != nil {
		t.Fatal(err)
	}
	ma, okA := Identity(mustLstat(t, m, "/a"))
	mb, okB := Identity(mustLstat(t, m, "/b"))
	if !okA || !okB || ma != mb || ma == ia {
		t.Fatalf("memory identities %v,%v %v,%v (host %v)", ma, okA, mb, okB, ia)
	}
}

func mustLstat(t *testing.T, m *MemFs, name string) os.FileInfo {
	t.Helper()
	fi, _, err := m.LstatIfPossible(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
