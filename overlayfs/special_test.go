//go:build unix

package overlayfs

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TM-FS-011: opening a FIFO, socket or device in a volume never blocks and
// never reads it; the layer's lock is free afterwards (Close returns).
func TestHostFsRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Symlink("fifo", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{true, false} {
		h, err := NewHostFs(dir, ro)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for _, name := range []string{"/fifo", "/sock", "/link"} {
				opens := []func() (File, error){
					func() (File, error) { return h.Open(name) },
					func() (File, error) { return h.OpenFollow(name) },
				}
				if !ro {
					opens = append(opens, func() (File, error) { return h.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0) })
				}
				for i, open := range opens {
					f, err := open()
					if err == nil {
						f.Close()
						if name == "/link" && i == 0 {
							continue // the link itself: O_NOFOLLOW refuses it another way
						}
						t.Errorf("ro=%v %s (open #%d): opened", ro, name, i)
						continue
					}
					if name != "/link" && !errors.Is(err, syscall.ENXIO) {
						t.Errorf("ro=%v %s (open #%d): %v, want ENXIO", ro, name, i, err)
					}
				}
			}
			if _, err := h.ReadDir("/fifo"); err == nil {
				t.Errorf("listing a FIFO succeeded")
			}
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("an open of a special file blocked")
		}
		closed := make(chan struct{})
		go func() { h.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			t.Fatal("Close blocked: the layer's lock is still held")
		}
	}
}

// TM-FS-012: a script cannot make setuid, setgid or sticky files or
// directories on the host.
func TestHostFsStripsSpecialBits(t *testing.T) {
	dir := t.TempDir()
	h, err := NewHostFs(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	f, err := h.OpenFile("/new", os.O_WRONLY|os.O_CREATE, 0o777|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := h.Mkdir("/d", 0o777|fs.ModeSetgid|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "old"), nil, 0o644)
	if err := h.Chmod("/old", 0o755|fs.ModeSetuid|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"new", "d", "old"} {
		var st syscall.Stat_t
		if err := syscall.Stat(filepath.Join(dir, name), &st); err != nil {
			t.Fatal(err)
		}
		if st.Mode&(syscall.S_ISUID|syscall.S_ISGID|syscall.S_ISVTX) != 0 {
			t.Errorf("%s: mode %o keeps special bits", name, st.Mode)
		}
	}
}
