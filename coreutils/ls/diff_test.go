package ls

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// fixture runs a bash setup script in a fresh host directory and mirrors
// the result (contents, modes, mtimes, symlinks) into a sandbox /work.
func fixture(t *testing.T, script string) (string, builtins.FS) {
	t.Helper()
	if f, ok := fixtures[script]; ok {
		return f.dir, f.fs
	}
	dir, fsys := makeFixture(t, script)
	fixtures[script] = cachedFixture{dir, fsys}
	return dir, fsys
}

type cachedFixture struct {
	dir string
	fs  builtins.FS
}

// fixtures are shared by the read-only comparisons of one test run.
var fixtures = map[string]cachedFixture{}

func makeFixture(t *testing.T, script string) (string, builtins.FS) {
	t.Helper()
	dir, err := os.MkdirTemp("", "lsdiff")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TZ=UTC"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	env := cmdtest.Env{}
	fsys := env.NewFS()
	var dirs []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		guest := "/work"
		if rel != "." {
			guest = "/work/" + filepath.ToSlash(rel)
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			if err := fsys.SymlinkIfPossible(target, guest); err != nil {
				return err
			}
		case fi.IsDir():
			if rel != "." {
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
			fsys.Chmod(guest, fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
			fsys.Chtimes(guest, fi.ModTime(), fi.ModTime())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		p := dirs[i]
		rel, _ := filepath.Rel(dir, p)
		guest := "/work"
		if rel != "." {
			guest = "/work/" + filepath.ToSlash(rel)
		}
		fi, _ := os.Lstat(p)
		fsys.Chmod(guest, fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
		fsys.Chtimes(guest, fi.ModTime(), fi.ModTime())
	}
	return dir, fsys
}

// realRun runs the host tool in dir.
func realRun(t *testing.T, dir string, env []string, args ...string) cmdtest.Result {
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
	return cmdtest.Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
}

// diffEnv is the environment both sides run with: the host runs as root,
// so the sandbox user is named root too.
var diffEnv = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TZ=UTC", "USER=root", "HOME=/root"}

func compare(t *testing.T, name string, run builtins.Command, setup string, args ...string) {
	t.Helper()
	compareEnv(t, name, diffEnv, run, setup, args...)
}

func compareEnv(t *testing.T, name string, envv []string, run builtins.Command, setup string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(args[0]); err != nil {
		t.Skipf("%s not installed", args[0])
	}
	dir, fsys := fixture(t, setup)
	want := realRun(t, dir, envv, args...)
	env := cmdtest.Env{Env: envv}
	got := env.RunIn(fsys, run, args...)
	got.Stdout, want.Stdout = recent.ReplaceAllString(got.Stdout, "RECENT"), recent.ReplaceAllString(want.Stdout, "RECENT")
	if got.Stdout != want.Stdout || got.Stderr != want.Stderr || got.Code != want.Code {
		t.Errorf("%s: %q\n--- got (code %d)\n%s%s--- want (code %d)\n%s%s", name, args, got.Code, got.Stdout, got.Stderr, want.Code, want.Stdout, want.Stderr)
	}
}

// recent matches the date of a file made while the test runs (symlinks,
// whose times the sandbox cannot set).
var recent = regexp.MustCompile(`[A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]`)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range fixtures {
		os.RemoveAll(f.dir)
	}
	os.Exit(code)
}
