package ls

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/filevercmp"
)

func TestSandboxListing(t *testing.T) {
	env := cmdtest.Env{Env: []string{"TZ=UTC", "LANG=C.UTF-8"}}
	fsys := env.NewFS()
	for _, name := range []string{"/work/zeta", "/work/alpha", "/work/mid"} {
		f, _ := fsys.Create(name)
		f.Write([]byte("12345"))
		f.Close()
	}
	fsys.Mkdir("/work/dir", 0o755)

	// vdir's long listing is a default -1 replaces; after -l it does not.
	if r := env.RunIn(fsys, Run, "vdir", "-1"); r.Stdout != "alpha\ndir\nmid\nzeta\n" {
		t.Errorf("vdir -1: %q", r.Stdout)
	}
	if r := env.RunIn(fsys, Run, "vdir", "-l", "-1", "alpha"); !strings.Contains(r.Stdout, " user user 5 ") {
		t.Errorf("vdir -l -1: %q", r.Stdout)
	}
	r := env.RunIn(fsys, Run, "ls", "-f")
	if r.Stdout != ".\n..\nzeta\nalpha\nmid\ndir\n" {
		t.Errorf("ls -f keeps creation order: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "ls", "-lnd", "alpha", "dir")
	if !strings.Contains(r.Stdout, " 1 1000 1000    5 ") || !strings.Contains(r.Stdout, "drwxr-xr-x 2 1000 1000 4096 ") {
		t.Errorf("ls -ln: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "ls", "-l", "alpha")
	if !strings.Contains(r.Stdout, " 1 user user 5 ") {
		t.Errorf("owner: %q", r.Stdout)
	}
	a := env.RunIn(fsys, Run, "ls", "-i", "alpha").Stdout
	b := env.RunIn(fsys, Run, "ls", "-i", "/work/alpha").Stdout
	if strings.Fields(a)[0] != strings.Fields(b)[0] || strings.Fields(a)[0] == "0" {
		t.Errorf("inode numbers: %q %q", a, b)
	}
	r = env.RunIn(fsys, Run, "ls", "-l", "/dev/null", "/dev/zero")
	want := "crw-rw-rw- 1 root root 1, 3 Jan  1  2026 /dev/null\ncrw-rw-rw- 1 root root 1, 5 Jan  1  2026 /dev/zero\n"
	if r.Stdout != want {
		t.Errorf("devices:\n%s", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "ls", "/dev")
	if r.Stdout != "fd\nnull\nrandom\nstderr\nstdin\nstdout\nurandom\nzero\n" {
		t.Errorf("ls /dev: %q", r.Stdout)
	}
	r = env.RunIn(fsys, Run, "ls", "-d", "/tmp", "/bin", "/nope")
	if r.Code != 2 || r.Stdout != "/bin\n/tmp\n" || r.Stderr != "ls: cannot access '/nope': No such file or directory\n" {
		t.Errorf("ls -d: %d %q %q", r.Code, r.Stdout, r.Stderr)
	}
	r = (&cmdtest.Env{Env: []string{"USER=alice", "TZ=UTC"}}).RunIn(fsys, Run, "ls", "-g", "alpha")
	if r.Code != 0 || strings.Contains(r.Stdout, "alice alice") || !strings.Contains(r.Stdout, " alice 5 ") {
		t.Errorf("USER: %q", r.Stdout)
	}
	r = (&cmdtest.Env{Env: []string{"TZ=Asia/Tokyo"}}).RunIn(fsys, Run, "ls", "-l", "--time-style=+%z", "alpha")
	if !strings.Contains(r.Stdout, " +0900 alpha") {
		t.Errorf("TZ: %q", r.Stdout)
	}
}

func TestHelpVersion(t *testing.T) {
	r := (&cmdtest.Env{}).Run(Run, "ls", "--help")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "Usage: ls [OPTION]... [FILE]...\n") {
		t.Errorf("--help: %d %q", r.Code, r.Stdout)
	}
	r = (&cmdtest.Env{}).Run(Run, "ls", "--version")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "ls (bashbox) ") {
		t.Errorf("--version: %q", r.Stdout)
	}
}

func TestFilevercmp(t *testing.T) {
	for _, c := range [][2]string{{"a2", "a10"}, {"v1.9", "v1.10"}, {".", ".."}, {".x", "a"}, {"foo1.tar.gz", "foo10.tar.gz"}, {"1.0~rc1", "1.0"}} {
		if filevercmp.Compare(c[0], c[1]) >= 0 {
			t.Errorf("%q should sort before %q", c[0], c[1])
		}
	}
}
