package volumes

import (
	"io"
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/overlayfs"
)

const masked = "HOST FILE UNDER A MOUNT POINT"

// nestedNamespace binds a rw outer volume at /work with a ro volume over
// /work/hidden and a rw one over /work/rwin. The outer host directory has
// its own hidden/ and rwin/ holding files the mounts cover.
func nestedNamespace(t testing.TB) *Namespace {
	outer, ro, rw := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{"hidden", "rwin", "sub"} {
		if err := os.MkdirAll(filepath.Join(outer, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"hidden/secret.txt", "rwin/secret.txt", "hidden/only-host.txt"} {
		if err := os.WriteFile(filepath.Join(outer, f), []byte(masked), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(outer, "sub", "plain.txt"), []byte("outer plain\n"), 0o644)
	os.WriteFile(filepath.Join(ro, "secret.txt"), []byte("ro volume\n"), 0o644)
	os.WriteFile(filepath.Join(rw, "secret.txt"), []byte("rw volume\n"), 0o644)
	os.Symlink("secret.txt", filepath.Join(ro, "alias"))
	tb, err := NewTable([]Volume{
		{HostDir: outer, GuestPath: "/work", Mode: ReadWrite},
		{HostDir: ro, GuestPath: "/work/hidden", Mode: ReadOnly},
		{HostDir: rw, GuestPath: "/work/rwin", Mode: ReadWrite},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb.Namespace(Options{Quota: &overlayfs.Quota{}, Home: "/home/user"})
}

// TM-FS-013: `ln -s hidden l; cat l/secret.txt` reads the ro volume's
// file, not the host file that the nested mount covers.
func TestLinkIntoNestedMountReadsTheMount(t *testing.T) {
	ns := nestedNamespace(t)
	if err := ns.SymlinkIfPossible("hidden", "/work/l"); err != nil {
		t.Fatal(err)
	}
	if err := ns.SymlinkIfPossible("/work/rwin/secret.txt", "/work/abs"); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"/work/l/secret.txt": "ro volume\n",
		"/work/l/alias":      "ro volume\n",
		"/work/abs":          "rw volume\n",
	} {
		f, err := ns.Open(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if string(b) != want {
			t.Errorf("%s = %q, want %q", name, b, want)
		}
		fi, err := ns.Stat(name)
		if err != nil || fi.Size() != int64(len(want)) {
			t.Errorf("stat %s: %v %v", name, fi, err)
		}
	}
	if _, err := ns.Open("/work/l/only-host.txt"); err == nil {
		t.Errorf("a host file under the mount point was opened")
	}
	if _, err := ns.Stat("/work/l/only-host.txt"); err == nil {
		t.Errorf("a host file under the mount point was stated")
	}
	if _, _, err := ns.LstatIfPossible("/work/l/only-host.txt"); err == nil {
		t.Errorf("a host file under the mount point was lstated")
	}
}

// TM-FS-013: random link targets across nested rw and ro mounts. Whatever
// the target, a read through the link gives what the guest resolver says
// (the file at the resolved guest path), and never a covered host file.
func TestLinkTargetsAcrossNestedMounts(t *testing.T) {
	ns := nestedNamespace(t)
	rng := rand.New(rand.NewSource(1))
	parts := []string{"hidden", "rwin", "sub", "..", ".", "/work", "/", "secret.txt", "only-host.txt", "alias", "l0", "l1", "l2", "plain.txt"}
	dirs := []string{"/work", "/work/sub", "/work/rwin"}
	for i := 0; i < 600; i++ {
		var target strings.Builder
		for n := 1 + rng.Intn(4); n > 0; n-- {
			p := parts[rng.Intn(len(parts))]
			if target.Len() > 0 && !strings.HasSuffix(target.String(), "/") && !strings.HasPrefix(p, "/") {
				target.WriteString("/")
			}
			target.WriteString(p)
		}
		link := path.Join(dirs[rng.Intn(len(dirs))], "l"+string(rune('0'+rng.Intn(3))))
		ns.Remove(link)
		if err := ns.SymlinkIfPossible(target.String(), link); err != nil {
			continue
		}
		for _, suffix := range []string{"", "/secret.txt", "/only-host.txt", "/alias", "/../hidden/secret.txt"} {
			checkSameAsResolver(t, ns, link+suffix, target.String())
		}
	}
}

func checkSameAsResolver(t *testing.T, ns *Namespace, name, target string) {
	t.Helper()
	got, openErr := readAllFile(ns, name)
	if strings.Contains(got, masked) {
		t.Fatalf("%s (-> %s) read a covered host file", name, target)
	}
	fi, statErr := ns.Stat(name)
	if (openErr == nil) != (statErr == nil) && (statErr == nil && !fi.IsDir()) {
		t.Fatalf("%s (-> %s): open %v, stat %v", name, target, openErr, statErr)
	}
	resolved, err := ns.Resolve(name, true)
	if err != nil {
		if openErr == nil {
			t.Fatalf("%s (-> %s): opened, but the resolver says %v", name, target, err)
		}
		return
	}
	if rfi, err := ns.lstatRaw(resolved); err == nil && rfi.IsDir() {
		if statErr != nil || !fi.IsDir() {
			t.Fatalf("%s (-> %s): the resolver finds directory %s, stat says %v %v", name, target, resolved, fi, statErr)
		}
		return
	}
	m, rel := ns.find(resolved)
	f, err := m.layer.OpenFile(rel, os.O_RDONLY, 0)
	var want string
	if err == nil {
		b, _ := io.ReadAll(f)
		f.Close()
		want = string(b)
	}
	if (err == nil) != (openErr == nil) || want != got {
		t.Fatalf("%s (-> %s): got %q (%v), resolver's %s gives %q (%v)", name, target, got, openErr, resolved, want, err)
	}
}

func readAllFile(ns *Namespace, name string) (string, error) {
	f, err := ns.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}

// TM-FS-013: the same property under the fuzzer (go test -fuzz
// FuzzLinkTargetsAcrossNestedMounts ./volumes): any link target, made in
// any of the three directories, reads what the guest resolver names and
// never a covered host file.
func FuzzLinkTargetsAcrossNestedMounts(f *testing.F) {
	for _, seed := range []string{"hidden", "../hidden", "/work/hidden/../hidden", "rwin/../hidden", "../../work/hidden", "l1/hidden", ".", "/work//hidden/", "sub/../../work/rwin"} {
		f.Add(seed, uint8(0))
	}
	ns := nestedNamespace(f)
	dirs := []string{"/work", "/work/sub", "/work/rwin"}
	f.Fuzz(func(t *testing.T, target string, where uint8) {
		if target == "" || strings.ContainsRune(target, 0) || len(target) > 256 {
			return
		}
		link := path.Join(dirs[int(where)%len(dirs)], "l"+string(rune('0'+where%3)))
		ns.Remove(link)
		if err := ns.SymlinkIfPossible(target, link); err != nil {
			return
		}
		for _, suffix := range []string{"", "/secret.txt", "/only-host.txt", "/alias", "/../hidden/secret.txt"} {
			checkSameAsResolver(t, ns, link+suffix, target)
		}
	})
}
