package mv_test

import (
	"os"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/mv"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

func TestTable(t *testing.T) {
	files := map[string]string{"a": "A", "d/f": "F", "t": "T", "e/": ""}
	for _, tc := range []struct {
		name           string
		args           []string
		stdout, stderr string
		code           int
	}{
		{"rename", []string{"mv", "-v", "a", "b"}, "renamed 'a' -> 'b'\n", "", 0},
		{"missing", []string{"mv", "x", "b"}, "", "mv: cannot stat 'x': No such file or directory\n", 1},
		{"into itself", []string{"mv", "d", "d/b"}, "", "mv: cannot move 'd' to a subdirectory of itself, 'd/b'\n", 1},
		{"same", []string{"mv", "a", "a"}, "", "mv: 'a' and 'a' are the same file\n", 1},
		{"dir onto file", []string{"mv", "-T", "d", "t"}, "", "mv: cannot overwrite non-directory 't' with directory 'd'\n", 1},
		{"file onto dir", []string{"mv", "-T", "a", "e"}, "", "mv: cannot overwrite directory 'e' with non-directory\n", 1},
		{"no clobber", []string{"mv", "-n", "a", "t"}, "", "", 0},
		{"interactive", []string{"mv", "-i", "a", "t"}, "", "mv: overwrite 't'? ", 0},
		{"no operand", []string{"mv"}, "", "mv: missing file operand\nTry 'mv --help' for more information.\n", 1},
		{"target dir missing", []string{"mv", "-t", "nope", "a"}, "", "mv: target directory 'nope': No such file or directory\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(mv.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
}

// twoVolumes is a namespace with ephemeral volumes at /work and /mnt.
func twoVolumes(t *testing.T) *volumes.Namespace {
	table, err := volumes.NewTable([]volumes.Volume{
		{GuestPath: "/work", Mode: volumes.Ephemeral},
		{GuestPath: "/mnt", Mode: volumes.Ephemeral},
	})
	if err != nil {
		t.Fatal(err)
	}
	return table.Namespace(volumes.Options{Quota: &overlayfs.Quota{}, Home: "/home/user"})
}

func write(t *testing.T, ns *volumes.Namespace, name, content string, mode os.FileMode) {
	t.Helper()
	ns.MkdirAll("/work/d/sub", 0o755)
	f, err := ns.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(content))
	f.Close()
}

func TestAcrossVolumes(t *testing.T) {
	ns := twoVolumes(t)
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	write(t, ns, "/work/f", "file", 0o640)
	write(t, ns, "/work/d/sub/g", "deep", 0o600)
	ns.SymlinkIfPossible("sub/g", "/work/d/link")
	ns.Chtimes("/work/f", old, old)
	ns.Chtimes("/work/d/sub", old, old)

	env := &cmdtest.Env{}
	res := env.RunIn(ns, mv.Run, "mv", "-v", "f", "/mnt/f")
	if res.Code != 0 || res.Stdout != "copied 'f' -> '/mnt/f'\nremoved 'f'\n" {
		t.Fatalf("mv file: %d %q %q", res.Code, res.Stdout, res.Stderr)
	}
	if _, err := ns.Stat("/work/f"); err == nil {
		t.Error("source still there")
	}
	fi, err := ns.Stat("/mnt/f")
	if err != nil || fi.Mode().Perm() != 0o640 || !fi.ModTime().Equal(old) || cmdtest.ReadFile(t, ns, "/mnt/f") != "file" {
		t.Errorf("moved file: %v %v", fi, err)
	}

	res = env.RunIn(ns, mv.Run, "mv", "d", "/mnt")
	if res.Code != 0 || res.Stderr != "" {
		t.Fatalf("mv dir: %d %q", res.Code, res.Stderr)
	}
	if _, err := ns.Stat("/work/d"); err == nil {
		t.Error("source dir still there")
	}
	if cmdtest.ReadFile(t, ns, "/mnt/d/sub/g") != "deep" {
		t.Error("tree content lost")
	}
	if target, err := ns.ReadlinkIfPossible("/mnt/d/link"); err != nil || target != "sub/g" {
		t.Errorf("symlink: %q %v", target, err)
	}
	fi, _ = ns.Stat("/mnt/d/sub")
	if !fi.ModTime().Equal(old) {
		t.Errorf("dir mtime not kept: %v", fi.ModTime())
	}
	fi, _ = ns.Stat("/mnt/d/sub/g")
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode not kept: %v", fi.Mode())
	}
}

func TestAcrossVolumesReplace(t *testing.T) {
	ns := twoVolumes(t)
	write(t, ns, "/work/f", "new", 0o644)
	ns.MkdirAll("/mnt/full/x", 0o755)
	ns.MkdirAll("/work/full", 0o755)
	f, _ := ns.Create("/mnt/f")
	f.Write([]byte("old"))
	f.Close()
	env := &cmdtest.Env{}
	if res := env.RunIn(ns, mv.Run, "mv", "/work/f", "/mnt/f"); res.Code != 0 || cmdtest.ReadFile(t, ns, "/mnt/f") != "new" {
		t.Errorf("replace: %d %q", res.Code, res.Stderr)
	}
	res := env.RunIn(ns, mv.Run, "mv", "/work/full", "/mnt")
	if res.Code != 1 || res.Stderr != "mv: cannot move '/work/full' to '/mnt/full': Directory not empty\n" {
		t.Errorf("non-empty target: %d %q", res.Code, res.Stderr)
	}
}
