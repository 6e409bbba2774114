package overlayfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// TestFdFile checks that a host file read through its bare descriptor
// behaves as the os.File it replaces.
func TestFdFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("hello world\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	h, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, open := range []func() (File, error){
		func() (File, error) { return h.Open("/f.txt") },
		func() (File, error) { return h.OpenFollow("/f.txt") },
	} {
		f, err := open()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := f.(*fdFile); !ok {
			t.Fatalf("got %T, want *fdFile", f)
		}
		if f.Name() != "/f.txt" {
			t.Errorf("Name() = %q", f.Name())
		}
		buf := make([]byte, 5)
		if n, err := f.Read(buf); n != 5 || err != nil || string(buf) != "hello" {
			t.Errorf("Read = %d %v %q", n, err, buf)
		}
		if n, err := f.ReadAt(buf, 6); n != 5 || err != nil || string(buf) != "world" {
			t.Errorf("ReadAt = %d %v %q", n, err, buf)
		}
		if n, err := f.ReadAt(buf, 10); n != 2 || err != io.EOF {
			t.Errorf("ReadAt past the end = %d %v", n, err)
		}
		if off, err := f.Seek(-3, io.SeekEnd); off != 9 || err != nil {
			t.Errorf("Seek = %d %v", off, err)
		}
		if rest, err := io.ReadAll(f); string(rest) != "ld\n" || err != nil {
			t.Errorf("ReadAll = %q %v", rest, err)
		}
		if n, err := f.Read(buf); n != 0 || err != io.EOF {
			t.Errorf("Read at EOF = %d %v", n, err)
		}
		fi, err := f.Stat()
		if err != nil || fi.Name() != "f.txt" || fi.Size() != 12 || fi.Mode() != 0o640 || fi.IsDir() {
			t.Errorf("Stat = %v %v", fi, err)
		}
		var pe *fs.PathError
		if _, err := f.Write([]byte("x")); !errors.As(err, &pe) || pe.Path != "/f.txt" || !errors.Is(err, syscall.EBADF) {
			t.Errorf("Write = %v, want EBADF naming the layer path", err)
		}
		if _, err := f.Readdir(-1); !errors.Is(err, syscall.ENOTDIR) {
			t.Errorf("Readdir = %v", err)
		}
		if err := f.Close(); err != nil {
			t.Errorf("Close = %v", err)
		}
		if err := f.Close(); !errors.Is(err, os.ErrClosed) {
			t.Errorf("second Close = %v", err)
		}
		if _, err := f.Read(buf); !errors.Is(err, os.ErrClosed) {
			t.Errorf("Read after Close = %v", err)
		}
	}
	if _, err := h.OpenFollow("/"); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("OpenFollow of a directory = %v, want EISDIR", err)
	}
	d, err := h.Open("/")
	if err != nil {
		t.Fatal(err)
	}
	if names, err := d.Readdirnames(-1); err != nil || len(names) != 1 || names[0] != "f.txt" {
		t.Errorf("Readdirnames = %v %v", names, err)
	}
	d.Close()
}

// TestFdFileCloseRace reads and closes at once while another file is
// opened, likely on the closed descriptor's number: a read must never
// reach that other file (TM-FS-009).
func TestFdFileCloseRace(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "zeros"), make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ones"), bytes.Repeat([]byte{0xff}, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for range 200 {
		f, err := h.Open("/zeros")
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			defer close(done)
			buf := make([]byte, 64)
			for {
				n, err := f.Read(buf)
				if bytes.IndexByte(buf[:n], 0xff) >= 0 {
					t.Error("a read after Close reached another file")
				}
				if err != nil {
					if err != io.EOF && !errors.Is(err, os.ErrClosed) {
						t.Error(err)
					}
					return
				}
			}
		}()
		go func() {
			defer wg.Done()
			f.Close()
			g, err := h.Open("/ones") // takes the freed number
			if err != nil {
				t.Error(err)
				return
			}
			<-done
			g.Close()
		}()
		wg.Wait()
	}
}

// TestReadDirents lists a directory bigger than one getdents buffer, with
// every kind of entry, and compares with os.File.ReadDir: same names in the
// same order, same types.
func TestReadDirents(t *testing.T) {
	dir := t.TempDir()
	for i := range 3000 {
		name := filepath.Join(dir, fmt.Sprintf("a-rather-long-file-name-%04d.txt", i))
		if err := os.WriteFile(name, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink("sub", filepath.Join(dir, "link"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := d.ReadDir(-1) // native order, as os.ReadDir's is not
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, list := range []func(string) ([]fs.FileInfo, error){h.ReadDirTypes, h.ReadDir} {
		got, err := list("/")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d entries, want %d", len(got), len(want))
		}
		for i, w := range want {
			if got[i].Name() != w.Name() || got[i].Mode().Type() != w.Type() {
				t.Fatalf("entry %d: %s %v, want %s %v", i, got[i].Name(), got[i].Mode().Type(), w.Name(), w.Type())
			}
		}
	}
	if _, err := h.ReadDirTypes("/fifo"); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("listing a FIFO: %v, want ENOTDIR", err)
	}
}

// TestFdFileOpenInfo: OpenInfo is the file as opened, without a system
// call; Stat is the file as it is now (a write since the open shows there
// only).
func TestFdFileOpenInfo(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(name, []byte("hello\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	h, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	f, err := h.OpenFollow("/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o, ok := f.(OpenStater)
	if !ok {
		t.Fatalf("%T is not an OpenStater", f)
	}
	if err := os.WriteFile(name, []byte("hello world\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	fi := o.OpenInfo()
	if fi == nil || fi.Name() != "f.txt" || fi.Size() != 6 || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o640 {
		t.Fatalf("OpenInfo() = %v", fi)
	}
	if now, err := f.Stat(); err != nil || now.Size() != 12 {
		t.Errorf("Stat() after a write = %v, %v; want size 12", now, err)
	}
}

// TestFdFileEndOfFile checks the read that is spared at the end of a file:
// after a short read at the size the open found, one Read says io.EOF,
// and a later Read sees what was appended meanwhile, as tail -f needs.
func TestFdFileEndOfFile(t *testing.T) {
	dir := t.TempDir()
	host := filepath.Join(dir, "log")
	if err := os.WriteFile(host, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := NewHostFs(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	f, err := h.Open("/log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64)
	if n, err := f.Read(buf); n != 4 || err != nil {
		t.Fatalf("Read = %d %v", n, err)
	}
	if n, err := f.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("Read at the end = %d %v, want 0 EOF", n, err)
	}
	w, err := os.OpenFile(host, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("two\n")
	w.Close()
	if n, err := f.Read(buf); n != 4 || err != nil || string(buf[:n]) != "two\n" {
		t.Fatalf("Read after an append = %d %v %q", n, err, buf[:n])
	}
	if n, err := f.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("Read at the new end = %d %v", n, err)
	}
	// A Seek back starts over: the whole file, then the end.
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if all, err := io.ReadAll(f); string(all) != "one\ntwo\n" || err != nil {
		t.Fatalf("ReadAll after Seek = %q %v", all, err)
	}
	// An exact-size buffer is not a short read: the kernel says EOF.
	g, err := h.Open("/log")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	exact := make([]byte, 8)
	if n, err := g.Read(exact); n != 8 || err != nil {
		t.Fatalf("exact Read = %d %v", n, err)
	}
	if n, err := g.Read(exact); n != 0 || err != io.EOF {
		t.Fatalf("Read after an exact read = %d %v", n, err)
	}
}
