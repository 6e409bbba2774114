package overlayfs

import (
	"os"
	"path/filepath"
	"testing"
)

// A mode with bits the process's umask strips is set exactly on a file or
// directory the layer creates, and left alone on one that existed.
func TestHostCreateKeepsTheGivenMode(t *testing.T) {
	dir := t.TempDir()
	h, err := NewHostFs(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	f, err := h.OpenFile("/new", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "old"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(dir, "old"), 0o600)
	f, err = h.OpenFile("/old", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := h.Mkdir("/d", 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := h.OpenFile("/old", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666); err == nil {
		t.Fatal("O_EXCL over an existing file")
	}
	for name, want := range map[string]os.FileMode{"new": 0o666, "old": 0o600, "d": 0o777} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, %v; want %v", name, fi.Mode().Perm(), err, want)
		}
	}
}
