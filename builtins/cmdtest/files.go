package cmdtest

import (
	"io"
	"io/fs"
	"testing"

	"github.com/bashbox/bashbox/vfs"

	"github.com/bashbox/bashbox/builtins"
)

// ReadFile is the content of the file name in fsys; the test fails when
// it cannot be opened.
func ReadFile(t testing.TB, fsys builtins.FS, name string) string {
	t.Helper()
	f, err := fsys.Open(name)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return string(b)
}

// Snapshot lists every entry of fsys under the roots: its mode, then the
// target of a symlink or the content of a file. Comparing two snapshots
// shows what a command changed.
func Snapshot(t testing.TB, fsys builtins.FS, roots ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, root := range roots {
		vfs.Walk(fsys, root, func(p string, info fs.FileInfo, err error) error {
			if err != nil {
				return nil
			}
			desc := info.Mode().String()
			switch {
			case info.Mode()&fs.ModeSymlink != 0:
				target, _ := fsys.ReadlinkIfPossible(p)
				desc += " -> " + target
			case info.Mode().IsRegular():
				desc += " " + ReadFile(t, fsys, p)
			}
			out[p] = desc
			return nil
		})
	}
	return out
}
