package cmdtest

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

// Differential tests: a bash setup script builds a tree on the host, the
// same tree is mirrored into a sandbox /work, and the real tool and the
// sandbox command run over their copies.

type fixture struct {
	dir string
	fs  builtins.FS
}

var (
	fixturesMu sync.Mutex
	fixtures   = map[string]fixture{}
)

// HostFixture runs setup with bash in a fresh host directory and mirrors
// the result (contents, modes, mtimes, symlinks) into a sandbox /work. The
// same setup gives the same (read-only) fixture within a test binary; call
// RemoveFixtures from TestMain.
func HostFixture(t testing.TB, setup string) (string, builtins.FS) {
	t.Helper()
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	if f, ok := fixtures[setup]; ok {
		return f.dir, f.fs
	}
	dir, err := os.MkdirTemp("", "bashbox-hostdiff-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", setup)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TZ=UTC"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	fsys := (&Env{}).NewFS()
	if err := mirror(dir, fsys); err != nil {
		t.Fatal(err)
	}
	fixtures[setup] = fixture{dir, fsys}
	return dir, fsys
}

// NewHostFixture is HostFixture for tests that change the tree: a fresh,
// uncached copy, removed when the test ends.
func NewHostFixture(t testing.TB, setup string) (string, builtins.FS) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("bash", "-c", setup)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TZ=UTC"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	fsys := (&Env{}).NewFS()
	if err := mirror(dir, fsys); err != nil {
		t.Fatal(err)
	}
	return dir, fsys
}

// RemoveFixtures deletes the host fixture directories.
func RemoveFixtures() {
	fixturesMu.Lock()
	defer fixturesMu.Unlock()
	for k, f := range fixtures {
		os.RemoveAll(f.dir)
		delete(fixtures, k)
	}
}

func mirror(dir string, fsys builtins.FS) error {
	guestOf := func(p string) string {
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return "/work"
		}
		return "/work/" + filepath.ToSlash(rel)
	}
	const modeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		guest := guestOf(p)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			return fsys.SymlinkIfPossible(target, guest)
		case fi.IsDir():
			if guest != "/work" {
				if err := fsys.Mkdir(guest, fi.Mode().Perm()); err != nil {
					return err
				}
			}
			dirs = append(dirs, p)
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f, err := fsys.Create(guest)
			if err != nil {
				return err
			}
			f.Write(data)
			f.Close()
			fsys.Chmod(guest, fi.Mode()&modeBits)
			fsys.Chtimes(guest, fi.ModTime(), fi.ModTime())
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Directory modes and times last: creating entries changes them.
	for i := len(dirs) - 1; i >= 0; i-- {
		fi, _ := os.Lstat(dirs[i])
		fsys.Chmod(guestOf(dirs[i]), fi.Mode()&modeBits)
		fsys.Chtimes(guestOf(dirs[i]), fi.ModTime(), fi.ModTime())
	}
	return nil
}

// RunHost runs the real tool args in dir; the test is skipped when it
// cannot start.
func RunHost(t testing.TB, dir string, env []string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Skipf("%s: %v", args[0], err)
	}
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
}

// HostDiffEnv is the environment both sides run with: the host runs as
// root, so the sandbox user is named root too.
var HostDiffEnv = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TZ=UTC", "USER=root", "HOME=/root"}

// CompareWithHost runs the real tool and run over the fixture of setup and
// reports any difference in stdout, stderr or status. normalize, when not
// nil, is applied to both stdouts first.
func CompareWithHost(t testing.TB, name string, env []string, run builtins.Command, setup string, normalize func(string) string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(args[0]); err != nil {
		t.Skipf("%s not installed", args[0])
	}
	dir, fsys := HostFixture(t, setup)
	want := RunHost(t, dir, env, args...)
	got := (&Env{Env: env}).RunIn(fsys, run, args...)
	if normalize != nil {
		got.Stdout, want.Stdout = normalize(got.Stdout), normalize(want.Stdout)
	}
	if got.Stdout != want.Stdout || got.Stderr != want.Stderr || got.Code != want.Code {
		t.Errorf("%s: %q\n--- got (code %d)\n%s%s--- want (code %d)\n%s%s", name, args, got.Code, got.Stdout, got.Stderr, want.Code, want.Stdout, want.Stderr)
	}
}
