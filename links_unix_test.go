//go:build unix

package bashbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
)

// TM-FS-015: a hard link made through a read-write volume must name a
// file of that volume: never one outside it, reached by a path, a
// planted or created symlink, or another volume.
func TestHardLinksStayInVolume(t *testing.T) {
	base := t.TempDir()
	vol := filepath.Join(base, "vol")
	other := filepath.Join(base, "other")
	outside := filepath.Join(base, "secret.txt")
	for _, d := range []string{vol, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(outside, []byte("secret-hardlink\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "o.txt"), []byte("other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Symlinks planted on the host, pointing out of the volume.
	if err := os.Symlink(outside, filepath.Join(vol, "abs-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret.txt", filepath.Join(vol, "rel-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(vol, "dir-out")); err != nil {
		t.Fatal(err)
	}
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{
		{HostDir: vol, GuestPath: "/w", Mode: volumes.ReadWrite},
		{HostDir: other, GuestPath: "/o", Mode: volumes.ReadWrite},
	}})
	attacks := []string{
		`ln ` + outside + ` /w/h1`, `ln ../secret.txt /w/h2`, `cd /w; ln ../../../secret.txt h3`,
		`ln -L /w/abs-out /w/h4`, `ln -L /w/rel-out /w/h5`, `ln /w/dir-out/secret.txt /w/h6`,
		`cp -l /w/rel-out /w/h7`, `cp -lL /w/abs-out /w/h8`, `link /w/dir-out/secret.txt /w/h9`,
		`ln -s ` + base + ` /w/made; ln /w/made/secret.txt /w/h10`,
		`ln /o/o.txt /w/h11`, `cd /w; ln /o/o.txt .`,
		`mkdir -p /tmp/x; cd /tmp/x; ln -s ` + outside + ` s; printf 'h12\nrel-out\n' > /dev/null; tar cf /tmp/t.tar -H gnu s; cd /w; tar xf /tmp/t.tar; ln -L s h12`,
	}
	for _, a := range attacks {
		res := run(t, b, a)
		if strings.Contains(res.Stdout+res.Stderr, "secret-hardlink") {
			t.Fatalf("%s: read the outside file: %q", a, res.Stdout+res.Stderr)
		}
	}
	var st syscall.Stat_t
	if err := syscall.Stat(outside, &st); err != nil {
		t.Fatal(err)
	}
	if st.Nlink != 1 {
		t.Fatalf("the outside file has %d links", st.Nlink)
	}
	if err := syscall.Stat(filepath.Join(other, "o.txt"), &st); err != nil || st.Nlink != 1 {
		t.Fatalf("the other volume's file has %d links (%v)", st.Nlink, err)
	}
	// Links inside the volume are real host links.
	res := run(t, b, `cd /w; echo in > a; ln a b; cp -l a c; stat -c %h a`)
	if res.Stdout != "3\n" {
		t.Fatalf("links in the volume: %q %q", res.Stdout, res.Stderr)
	}
	if err := syscall.Stat(filepath.Join(vol, "b"), &st); err != nil || st.Nlink != 3 {
		t.Fatalf("host link count %d (%v)", st.Nlink, err)
	}
}

// TM-FS-016: chown in the sandbox never changes a host file's owner.
func TestChownStaysInSandbox(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var before syscall.Stat_t
	if err := syscall.Stat(f, &before); err != nil {
		t.Fatal(err)
	}
	b := newBox(t, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/w", Mode: volumes.ReadWrite}}})
	res := run(t, b, `chown 4321:4321 /w/f; chown -R 4321:4321 /w; chgrp 4321 /w/f; stat -c %u:%g /w/f`)
	if res.Stdout != "4321:4321\n" {
		t.Fatalf("chown in the sandbox: %q %q", res.Stdout, res.Stderr)
	}
	var after syscall.Stat_t
	if err := syscall.Stat(f, &after); err != nil {
		t.Fatal(err)
	}
	if after.Uid != before.Uid || after.Gid != before.Gid {
		t.Fatalf("host owner changed: %d:%d -> %d:%d", before.Uid, before.Gid, after.Uid, after.Gid)
	}
}
