package cp_test

import (
	"io/fs"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/cp"
)

func TestTable(t *testing.T) {
	files := map[string]string{"a": "A\n", "d/f": "F\n", "d/sub/g": "G\n", "t": "T\n"}
	for _, tc := range []struct {
		name   string
		args   []string
		stdout string
		stderr string
		code   int
	}{
		{"simple", []string{"cp", "a", "b"}, "", "", 0},
		{"verbose", []string{"cp", "-v", "a", "b"}, "'a' -> 'b'\n", "", 0},
		{"missing", []string{"cp", "x", "b"}, "", "cp: cannot stat 'x': No such file or directory\n", 1},
		{"dir without r", []string{"cp", "d", "e"}, "", "cp: -r not specified; omitting directory 'd'\n", 1},
		{"same", []string{"cp", "a", "a"}, "", "cp: 'a' and 'a' are the same file\n", 1},
		{"no operand", []string{"cp"}, "", "cp: missing file operand\nTry 'cp --help' for more information.\n", 1},
		{"one operand", []string{"cp", "a"}, "", "cp: missing destination file operand after 'a'\nTry 'cp --help' for more information.\n", 1},
		{"bad option", []string{"cp", "-k", "a", "b"}, "", "cp: invalid option -- 'k'\nTry 'cp --help' for more information.\n", 1},
		{"not a dir", []string{"cp", "a", "t", "a"}, "", "cp: target 'a': Not a directory\n", 1},
		{"into itself", []string{"cp", "-r", "d", "d/x"}, "", "cp: cannot copy a directory, 'd', into itself, 'd/x'\n", 1},
		{"no clobber", []string{"cp", "-nv", "a", "t"}, "", "", 0},
		{"interactive", []string{"cp", "-i", "a", "t"}, "", "cp: overwrite 't'? ", 0},
		{"version", []string{"cp", "--version"}, "cp (bashbox) " + builtins.ReleaseVersion + "\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(cp.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
}

func TestRecursiveKeepsSymlinks(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{
		"d/f": "F", "d/rel": "->f", "d/abs": "->/work/d/f", "d/dangling": "->/nowhere",
	}}
	for _, args := range [][]string{{"cp", "-r", "d", "e"}, {"cp", "-a", "d", "e"}, {"cp", "-R", "d", "e"}} {
		res := env.Run(cp.Run, args...)
		if res.Code != 0 || res.Stderr != "" {
			t.Fatalf("%v: %d %q", args, res.Code, res.Stderr)
		}
		for name, want := range map[string]string{"/work/e/rel": "f", "/work/e/abs": "/work/d/f", "/work/e/dangling": "/nowhere"} {
			got, err := res.FS.ReadlinkIfPossible(name)
			if err != nil || got != want {
				t.Errorf("%v: %s -> %q (%v), want %q", args, name, got, err, want)
			}
		}
	}
}

func TestDereference(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"d/f": "F", "d/abs": "->/work/d/f", "l": "->/work/d"}}
	res := env.Run(cp.Run, "cp", "-rL", "d", "e")
	if res.Code != 0 {
		t.Fatal(res.Stderr)
	}
	fi, _, err := res.FS.LstatIfPossible("/work/e/abs")
	if err != nil || !fi.Mode().IsRegular() || cmdtest.ReadFile(t, res.FS, "/work/e/abs") != "F" {
		t.Errorf("-L did not copy the absolute link's target: %v %v", fi, err)
	}
	// Without -r, a symlink operand is followed.
	res = env.Run(cp.Run, "cp", "d/abs", "x")
	if res.Code != 0 || cmdtest.ReadFile(t, res.FS, "/work/x") != "F" {
		t.Errorf("cp link: %d %q", res.Code, res.Stderr)
	}
	// -H follows the operand but not the links below it.
	res = env.Run(cp.Run, "cp", "-rH", "l", "m")
	if res.Code != 0 {
		t.Fatal(res.Stderr)
	}
	fi, _, _ = res.FS.LstatIfPossible("/work/m")
	if !fi.IsDir() {
		t.Errorf("-H: m is %v", fi.Mode())
	}
	if target, err := res.FS.ReadlinkIfPossible("/work/m/abs"); err != nil || target != "/work/d/f" {
		t.Errorf("-H: m/abs -> %q %v", target, err)
	}
}

func TestPreserve(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"a": "A", "d/f": "F"}}
	fsys := env.NewFS()
	old := time.Date(2000, 1, 2, 3, 4, 5, 0, time.UTC)
	fsys.Chmod("/work/a", 0o751)
	fsys.Chtimes("/work/a", old, old)
	fsys.Chtimes("/work/d", old, old)
	res := env.RunIn(fsys, cp.Run, "cp", "-p", "a", "b")
	if res.Code != 0 {
		t.Fatal(res.Stderr)
	}
	fi, _ := fsys.Stat("/work/b")
	if fi.Mode().Perm() != 0o751 || !fi.ModTime().Equal(old) {
		t.Errorf("cp -p: %v %v", fi.Mode(), fi.ModTime())
	}
	env.RunIn(fsys, cp.Run, "cp", "a", "c")
	fi, _ = fsys.Stat("/work/c")
	if fi.Mode().Perm() != 0o751&^0o022 || fi.ModTime().Equal(old) {
		t.Errorf("cp: %v %v", fi.Mode(), fi.ModTime())
	}
	env.RunIn(fsys, cp.Run, "cp", "-a", "d", "e")
	fi, _ = fsys.Stat("/work/e")
	if !fi.ModTime().Equal(old) {
		t.Errorf("cp -a dir time: %v", fi.ModTime())
	}
}

func TestUpdateAndParents(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"a/b/c": "new", "t/": "", "old": "o"}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, cp.Run, "cp", "-v", "--parents", "a/b/c", "t")
	if res.Stdout != "a -> t/a\na/b -> t/a/b\n'a/b/c' -> 't/a/b/c'\n" || cmdtest.ReadFile(t, fsys, "/work/t/a/b/c") != "new" {
		t.Errorf("--parents: %q %q", res.Stdout, res.Stderr)
	}
	past := time.Now().Add(-time.Hour)
	fsys.Chtimes("/work/old", past, past)
	res = env.RunIn(fsys, cp.Run, "cp", "-u", "old", "a/b/c")
	if cmdtest.ReadFile(t, fsys, "/work/a/b/c") != "new" || res.Code != 0 {
		t.Errorf("-u overwrote a newer file")
	}
	res = env.RunIn(fsys, cp.Run, "cp", "-u", "a/b/c", "old")
	if cmdtest.ReadFile(t, fsys, "/work/old") != "new" {
		t.Errorf("-u did not copy a newer file")
	}
}

func TestSymlinkMode(t *testing.T) {
	res := (&cmdtest.Env{Files: map[string]string{"a": "A", "d/": ""}}).Run(cp.Run, "cp", "-s", "/work/a", "d/l")
	if got, err := res.FS.ReadlinkIfPossible("/work/d/l"); err != nil || got != "/work/a" {
		t.Errorf("cp -s absolute: %q %v %q", got, err, res.Stderr)
	}
	res = (&cmdtest.Env{Files: map[string]string{"a": "A", "d/": ""}}).Run(cp.Run, "cp", "-s", "a", "d/l")
	if res.Code != 1 || res.Stderr != "cp: d/l: can make relative symbolic links only in current directory\n" {
		t.Errorf("cp -s relative: %q", res.Stderr)
	}
	fi, _, _ := res.FS.LstatIfPossible("/work/d")
	if fi.Mode()&fs.ModeDir == 0 {
		t.Error("d changed")
	}
}

func TestCyclicSymlink(t *testing.T) {
	res := (&cmdtest.Env{Files: map[string]string{"d/s/up": "->.."}}).Run(cp.Run, "cp", "-rL", "d", "e")
	if res.Code != 1 || res.Stderr != "cp: cannot copy cyclic symbolic link 'd/s/up'\n" {
		t.Errorf("got %d %q", res.Code, res.Stderr)
	}
}
