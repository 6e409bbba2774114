package volumes

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bashbox/bashbox/overlayfs"
)

func TestParse(t *testing.T) {
	cases := map[string]Volume{
		"/src":                {HostDir: "/src", GuestPath: "/work", Mode: ReadOnly},
		"/src:/data":          {HostDir: "/src", GuestPath: "/data", Mode: ReadOnly},
		"/src:/data:rw":       {HostDir: "/src", GuestPath: "/data", Mode: ReadWrite},
		"/src:rw":             {HostDir: "/src", GuestPath: "/work", Mode: ReadWrite},
		".:/work:ro":          {HostDir: ".", GuestPath: "/work", Mode: ReadOnly},
		":/scratch:ephemeral": {GuestPath: "/scratch", Mode: Ephemeral},
	}
	for spec, want := range cases {
		got, err := Parse(spec)
		if err != nil || got != want {
			t.Errorf("%s: got %+v %v", spec, got, err)
		}
	}
	for bad, why := range map[string]string{
		"":                   "empty",
		":/x":                ":/x:ephemeral",
		"a:b:c:d":            "too many",
		"/scratch:ephemeral": "has no host directory",
		"/src:/s:ephemeral":  "has no host directory",
		":ephemeral":         "give the guest path",
		"/src:RW":            `guest path "RW" is not absolute`,
		"/src:work":          "not absolute",
		"/src::ro":           "empty guest path",
	} {
		_, err := Parse(bad)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: error %v, want one saying %q", bad, err, why)
		}
	}
}

func TestNewTableRefuses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, vols := range map[string][]Volume{
		"missing dir":     {{HostDir: filepath.Join(dir, "nope"), GuestPath: "/work"}},
		"not a dir":       {{HostDir: file, GuestPath: "/work"}},
		"relative guest":  {{HostDir: dir, GuestPath: "work"}},
		"root guest":      {{HostDir: dir, GuestPath: "/"}},
		"reserved":        {{HostDir: dir, GuestPath: "/dev"}},
		"duplicate":       {{HostDir: dir, GuestPath: "/w"}, {HostDir: dir, GuestPath: "/w"}},
		"rw nested in ro": {{HostDir: dir, GuestPath: "/w", Mode: ReadOnly}, {HostDir: dir, GuestPath: "/w/inner", Mode: ReadWrite}},
		"unknown mode":    {{HostDir: dir, GuestPath: "/w", Mode: "wx"}},
	} {
		if tb, err := NewTable(vols); err == nil {
			tb.Close()
			t.Errorf("%s: accepted", name)
		}
	}
}

func namespace(t *testing.T) (*Namespace, string) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "f.txt"), []byte("data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := NewTable([]Volume{
		{HostDir: dir, GuestPath: "/work", Mode: ReadOnly},
		{GuestPath: "/work/scratch", Mode: Ephemeral},
		{GuestPath: "/data", Mode: Ephemeral},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb.Namespace(Options{Quota: &overlayfs.Quota{}, Commands: []string{"cat", "grep"}, Home: "/home/user"}), dir
}

func names(t *testing.T, ns *Namespace, dir string) string {
	entries, err := ns.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return strings.Join(out, " ")
}

func TestNamespaceLayout(t *testing.T) {
	ns, _ := namespace(t)
	if got := names(t, ns, "/"); got != "tmp dev usr home work data bin" {
		t.Errorf("/ = %q", got)
	}
	if got := names(t, ns, "/usr/bin"); got != "cat grep" {
		t.Errorf("/usr/bin = %q", got)
	}
	if got := names(t, ns, "/work"); !strings.Contains(got, "sub") || !strings.Contains(got, "scratch") {
		t.Errorf("/work = %q (nested mount point missing?)", got)
	}
	f, err := ns.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	if n, _ := f.Read(b); n != 4 || b[0] != 0 {
		t.Errorf("/dev/zero read %v", b)
	}
	if _, err := ns.Stat("/etc"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("/etc: %v", err)
	}
}

func TestNamespaceSemantics(t *testing.T) {
	ns, dir := namespace(t)
	// A rename across mounts is EXDEV, as across filesystems.
	if err := ns.Rename("/work/sub/f.txt", "/data/f.txt"); !errors.Is(err, syscall.EXDEV) {
		t.Errorf("cross-mount rename: %v", err)
	}
	if err := ns.Remove("/data"); !errors.Is(err, syscall.EBUSY) {
		t.Errorf("removing a mount point: %v", err)
	}
	// Trailing slashes need directories.
	if _, err := ns.Stat("/work/sub/f.txt/"); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("file/: %v", err)
	}
	if _, err := ns.OpenFile("/data/newdir/", os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		t.Error("created a file from a name with a trailing slash")
	}
	// O_EXCL does not follow a dangling symlink.
	ns.SymlinkIfPossible("/data/target", "/data/link")
	if _, err := ns.OpenFile("/data/link", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); !errors.Is(err, syscall.EEXIST) {
		t.Errorf("O_EXCL through a dangling link: %v", err)
	}
	// An absolute link target is a guest path.
	ns.SymlinkIfPossible("/work/sub/f.txt", "/data/abs")
	f, err := ns.Open("/data/abs")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	if string(data) != "data\n" {
		t.Errorf("through abs link: %q", data)
	}
	// Writes to a read-only volume stay in the overlay.
	w, err := ns.Create("/work/sub/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("changed\n"))
	w.Close()
	if host, _ := os.ReadFile(filepath.Join(dir, "sub", "f.txt")); string(host) != "data\n" {
		t.Errorf("host file changed: %q", host)
	}
	m, err := ns.MountOf("/work/sub")
	if err != nil || m.Mode != ReadOnly || m.HostDir != dir || m.Rel != "/sub" {
		t.Errorf("MountOf: %+v %v", m, err)
	}
}

// TestListingThroughLinkIntoNestedVolume: a link in a volume that leads to
// where another volume is mounted lists the mounted volume, not the host
// directory underneath (the host fast path must not answer it).
func TestListingThroughLinkIntoNestedVolume(t *testing.T) {
	outer, inner := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(outer, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outer, "sub", "hostonly"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(outer, "ln")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(inner, "mounted"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := NewTable([]Volume{{HostDir: outer, GuestPath: "/work", Mode: ReadOnly}, {HostDir: inner, GuestPath: "/work/sub", Mode: ReadOnly}})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	ns := tb.Namespace(Options{Quota: &overlayfs.Quota{}})
	for _, dir := range []string{"/work/sub", "/work/ln"} {
		if got := names(t, ns, dir); got != "mounted" {
			t.Errorf("%s lists %q, want the nested volume's %q", dir, got, "mounted")
		}
		entries, err := ns.ReadDirTypes(dir)
		if err != nil || len(entries) != 1 || entries[0].Name() != "mounted" {
			t.Errorf("%s types: %v %v", dir, entries, err)
		}
	}
}
