package overlayfs

import (
	"io"
	"os"
	"testing"
)

func TestMemFsLinks(t *testing.T) {
	q := &Quota{}
	m := NewMemFs(q)
	f, _ := m.Create("/a")
	f.Write([]byte("hello"))
	f.Close()
	if err := m.Link("/a", "/b"); err != nil {
		t.Fatal(err)
	}
	if err := m.Link("/a", "/b"); err == nil {
		t.Fatal("link over an existing name")
	}
	m.Mkdir("/d", 0o755)
	if err := m.Link("/d", "/e"); err == nil {
		t.Fatal("link to a directory")
	}
	fi, _, _ := m.LstatIfPossible("/b")
	ls, ok := fi.Sys().(*LinkSys)
	if !ok || ls.Nlink != 2 {
		t.Fatalf("sys %#v", fi.Sys())
	}
	if q.Bytes() != 5 || q.Files() != 3 {
		t.Fatalf("quota %d bytes %d files", q.Bytes(), q.Files())
	}
	w, _ := m.OpenFile("/b", os.O_WRONLY|os.O_APPEND, 0)
	w.Write([]byte("!"))
	w.Close()
	if err := m.Remove("/a"); err != nil {
		t.Fatal(err)
	}
	r, _ := m.Open("/b")
	data, _ := io.ReadAll(r)
	r.Close()
	if string(data) != "hello!" {
		t.Fatalf("data %q", data)
	}
	if fi, _, _ := m.LstatIfPossible("/b"); fi.Sys() != nil {
		t.Fatalf("one name left, sys %#v", fi.Sys())
	}
	if q.Bytes() != 6 || q.Files() != 2 {
		t.Fatalf("quota after removal %d bytes %d files", q.Bytes(), q.Files())
	}
	m.Remove("/b")
	if q.Bytes() != 0 {
		t.Fatalf("bytes left %d", q.Bytes())
	}
}

func TestOverlayLinkCopiesUp(t *testing.T) {
	base := NewMemFs(nil)
	f, _ := base.Create("/a")
	f.Write([]byte("base"))
	f.Close()
	o := NewOverlay(base, NewMemFs(nil))
	if err := o.Link("/a", "/b"); err != nil {
		t.Fatal(err)
	}
	w, _ := o.OpenFile("/a", os.O_WRONLY|os.O_APPEND, 0)
	w.Write([]byte("+"))
	w.Close()
	r, _ := o.Open("/b")
	data, _ := io.ReadAll(r)
	r.Close()
	if string(data) != "base+" {
		t.Fatalf("b = %q", data)
	}
	r, _ = base.Open("/a")
	data, _ = io.ReadAll(r)
	r.Close()
	if string(data) != "base" {
		t.Fatalf("base changed: %q", data)
	}
}
