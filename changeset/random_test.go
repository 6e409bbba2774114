package changeset

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/bashbox/bashbox/overlayfs"
)

// TestRandomOpsRoundTrip is the change set's exactness check: random
// sequences of writes, removals, renames (of files and directories),
// mkdirs, chmods and symlinks are made both over an overlay and on a real
// writable copy of its base; the overlay's change set, applied with Apply
// to another copy of the base, must give the real copy byte for byte,
// modes included.
func TestRandomOpsRoundTrip(t *testing.T) {
	for seed := range uint64(80) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { randomRoundTrip(t, seed) })
	}
}

func randomRoundTrip(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	base := t.TempDir()
	writeFiles(t, base, map[string]string{"a": "a\n", "b": "b\nb\n", "d/c": "c\n", "d/e/f": "f\n", "g/h": "\x00bin"})
	os.Symlink("a", filepath.Join(base, "l"))
	real := t.TempDir()
	copyDir(t, base, real)
	o := overlayOn(t, base)

	names := []string{"a", "b", "x", "d", "d/c", "d/e", "d/e/f", "d/y", "g", "g/h", "n", "n/z", "l", "m"}
	pick := func() string { return names[rng.IntN(len(names))] }
	var log []string
	for range 25 {
		p, q := pick(), pick()
		var oerr, rerr error
		var op string
		switch rng.IntN(8) {
		case 0, 1:
			data := []byte(fmt.Sprintf("w%d\n", rng.IntN(3)))
			if rng.IntN(4) == 0 {
				data = data[:2] // no final newline
			}
			op = "write " + p
			oerr = writeOverlay(o, "/"+p, data)
			if oerr == nil {
				rerr = os.WriteFile(filepath.Join(real, p), data, 0o644)
			}
		case 2:
			op = "remove " + p
			oerr = o.Remove("/" + p)
			if oerr == nil {
				rerr = os.Remove(filepath.Join(real, p))
			}
		case 3, 4:
			if p == q {
				continue // rename(2) of a path onto itself changes nothing
			}
			op = "rename " + p + " " + q
			oerr = o.Rename("/"+p, "/"+q)
			if oerr == nil {
				// rename(2) itself: os.Rename refuses an existing
				// directory as the target, which rename(2) replaces
				// when empty.
				rerr = syscall.Rename(filepath.Join(real, p), filepath.Join(real, q))
			}
		case 5:
			op = "mkdir " + p
			oerr = o.Mkdir("/"+p, 0o755)
			if oerr == nil {
				rerr = os.Mkdir(filepath.Join(real, p), 0o755)
			}
		case 6:
			mode := []fs.FileMode{0o644, 0o755, 0o600, 0o700}[rng.IntN(4)]
			if rng.IntN(6) == 0 {
				p, mode = ".", 0o700|fs.FileMode(rng.IntN(2))*0o055 // the volume's root
			}
			op = fmt.Sprintf("chmod %o %s", mode, p)
			if fi, _, err := o.LstatIfPossible("/" + p); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
				continue
			}
			oerr = o.Chmod("/"+p, mode)
			if oerr == nil {
				rerr = os.Chmod(filepath.Join(real, p), mode)
			}
		case 7:
			op = "symlink " + q + " " + p
			oerr = o.SymlinkIfPossible(q, "/"+p)
			if oerr == nil {
				rerr = os.Symlink(q, filepath.Join(real, p))
			}
		}
		if oerr == nil {
			log = append(log, op)
		}
		if rerr != nil {
			t.Fatalf("%s: the overlay took it, the real directory refused: %v\nops: %q", op, rerr, log)
		}
	}
	set, err := FromOverlay(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []Format{Tar, JSON} {
		out, err := set.Encode(format, 0)
		must(t, err)
		data, _ := out.Bytes()
		loaded, err := Load(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v\nops: %q", format, err, log)
		}
		got := t.TempDir()
		copyDir(t, base, got)
		if _, err := Apply(got, loaded, false); err != nil {
			t.Fatalf("%s: apply: %v\nops: %q\n%s", format, err, log, data)
		}
		if w, g := state(t, real), state(t, got); w != g {
			t.Fatalf("%s: applied set differs from the real run\nops: %q\nwant:\n%s\ngot:\n%s\nset:\n%s", format, log, w, g, data)
		}
	}
}

func writeOverlay(o *overlayfs.Overlay, name string, data []byte) error {
	if fi, _, err := o.LstatIfPossible(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fs.ErrInvalid // the namespace follows links; the layer does not
	}
	f, err := o.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	f.Close()
	return err
}

// copyDir copies a small tree with modes and symlinks.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		fi, _ := os.Lstat(p)
		switch {
		case rel == ".":
		case fi.IsDir():
			os.Mkdir(target, fi.Mode().Perm())
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			os.Symlink(l, target)
		default:
			b, _ := os.ReadFile(p)
			os.WriteFile(target, b, fi.Mode().Perm())
		}
		return nil
	})
}
