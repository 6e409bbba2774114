package vfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/vfs"
)

func tree(t *testing.T) vfs.FS {
	t.Helper()
	m := overlayfs.NewMemFs(nil)
	for _, d := range []string{"/r/b/deep", "/r/a", "/r/c"} {
		if err := m.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"/r/z.txt", "/r/a/1", "/r/b/deep/2", "/r/c/3"} {
		fh, err := m.Create(f)
		if err != nil {
			t.Fatal(err)
		}
		fh.WriteString("content of " + f)
		fh.Close()
	}
	if err := m.SymlinkIfPossible("/r/b", "/r/link"); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestWalkOrderSymlinksAndSkips(t *testing.T) {
	m := tree(t)
	var got []string
	err := vfs.Walk(m, "/r", func(p string, fi fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			p += "@"
		}
		got = append(got, p)
		if p == "/r/c" {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Lexical order, the link reported and not followed, /r/c pruned.
	want := []string{"/r", "/r/a", "/r/a/1", "/r/b", "/r/b/deep", "/r/b/deep/2", "/r/c", "/r/link@", "/r/z.txt"}
	if !slices.Equal(got, want) {
		t.Fatalf("walk order:\n got %q\nwant %q", got, want)
	}

	// SkipDir from a file skips the rest of its directory; SkipAll ends
	// the walk without an error.
	got = nil
	vfs.Walk(m, "/r", func(p string, fi fs.FileInfo, err error) error {
		got = append(got, p)
		switch p {
		case "/r/b/deep/2":
			return filepath.SkipDir
		case "/r/c/3":
			return filepath.SkipAll
		}
		return nil
	})
	want = []string{"/r", "/r/a", "/r/a/1", "/r/b", "/r/b/deep", "/r/b/deep/2", "/r/c", "/r/c/3"}
	if !slices.Equal(got, want) {
		t.Fatalf("skips:\n got %q\nwant %q", got, want)
	}

	// An error from fn stops the walk and is returned.
	stop := errors.New("stop")
	if err := vfs.Walk(m, "/r", func(p string, _ fs.FileInfo, _ error) error {
		if p == "/r/a/1" {
			return stop
		}
		return nil
	}); err != stop {
		t.Fatalf("walk error = %v, want stop", err)
	}
}

func TestWalkMissingRoot(t *testing.T) {
	calls := 0
	err := vfs.Walk(tree(t), "/nosuch", func(p string, fi fs.FileInfo, err error) error {
		calls++
		if p != "/nosuch" || fi != nil || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("fn(%q, %v, %v)", p, fi, err)
		}
		return err
	})
	if calls != 1 || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("calls=%d err=%v", calls, err)
	}
}

func TestReadFile(t *testing.T) {
	m := tree(t)
	b, err := vfs.ReadFile(m, "/r/b/deep/2")
	if err != nil || string(b) != "content of /r/b/deep/2" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	if _, err := vfs.ReadFile(m, "/r/nosuch"); !os.IsNotExist(err) {
		t.Fatalf("ReadFile of a missing file: %v", err)
	}
}
