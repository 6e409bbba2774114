package fileops_test

// Differential tests: each case runs once with the real GNU tool in a
// host temporary directory and once in the sandbox over the same files,
// comparing standard output, standard error, exit status and the
// resulting tree. Cases are skipped when the GNU tool is missing.

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// fixedTime is the mtime given to every fixture file, so that preserved
// times can be told from fresh ones.
var fixedTime = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

type diffCase struct {
	name  string
	files map[string]string // "d/" makes a directory, "->t" a symlink
	args  []string
	stdin string
	// fresh lists files whose mtime is left at "now" (for -u tests).
	fresh []string
	// unordered compares standard output as a set of lines: a directory's
	// listing order is the host filesystem's on one side (hash or inode
	// order) and creation order on the other.
	unordered bool
	// env adds variables on both sides.
	env []string
}

func sortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "")
}

func runDiff(t *testing.T, cmd builtins.Command, cases []diffCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath(tc.args[0]); err != nil {
				t.Skip("no GNU", tc.args[0])
			}
			want := runGNU(t, tc)
			got := runOurs(t, cmd, tc)
			if got != want {
				t.Errorf("%q\n--- GNU:\n%s\n--- ours:\n%s", tc.args, want, got)
			}
		})
	}
}

func isFresh(tc diffCase, name string) bool {
	for _, f := range tc.fresh {
		if f == name {
			return true
		}
	}
	return false
}

func runGNU(t *testing.T, tc diffCase) string {
	dir := t.TempDir()
	names := make([]string, 0, len(tc.files))
	for n := range tc.files {
		names = append(names, n)
	}
	sort.Strings(names)
	var times []string
	for _, n := range names {
		content := tc.files[n]
		p := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(n, "/"):
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(content, "->"):
			if err := os.Symlink(content[2:], p); err != nil {
				t.Fatal(err)
			}
			continue
		default:
			if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, 0o666); err != nil {
				t.Fatal(err)
			}
		}
		if !isFresh(tc, n) {
			times = append(times, p)
		}
	}
	// Directories last, deepest first, so their times stick.
	sort.Slice(times, func(i, j int) bool { return len(times[i]) > len(times[j]) })
	for _, p := range times {
		os.Chtimes(p, fixedTime, fixedTime)
	}
	old := syscall.Umask(0o022)
	cmd := exec.Command(tc.args[0], tc.args[1:]...)
	syscall.Umask(old)
	cmd.Dir = dir
	cmd.Env = append([]string{"LANG=C.UTF-8", "PATH=/usr/bin:/bin", "HOME=/nonexistent", "TMPDIR=" + dir}, tc.env...)
	cmd.Stdin = strings.NewReader(tc.stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	stdout := out.String()
	if tc.unordered {
		stdout = sortLines(stdout)
	}
	res := fmt.Sprintf("code %d\nstdout:\n%s\nstderr:\n%s\ntree:\n%s", code, stdout, errb.String(), hostTree(dir))
	// Absolute names: the sandbox's fixture lives at /work.
	return strings.ReplaceAll(res, dir, "/work")
}

func hostTree(dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if p == dir || err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		fi, _ := os.Lstat(p)
		describe(&b, rel, fi, func() string { t, _ := os.Readlink(p); return t }, func() string { d, _ := os.ReadFile(p); return string(d) })
		return nil
	})
	return b.String()
}

func describe(b *strings.Builder, rel string, fi fs.FileInfo, link func() string, data func() string) {
	fmt.Fprintf(b, "%s %s", rel, fi.Mode().String())
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		fmt.Fprintf(b, " -> %s", link())
	case fi.Mode().IsRegular():
		fmt.Fprintf(b, " %q", data())
	}
	if fi.Mode()&fs.ModeSymlink == 0 && fi.ModTime().Equal(fixedTime) {
		b.WriteString(" fixed-time")
	}
	b.WriteByte('\n')
}

func runOurs(t *testing.T, cmd builtins.Command, tc diffCase) string {
	env := cmdtest.Env{Stdin: tc.stdin, Env: append([]string{"LANG=C.UTF-8", "PATH=/usr/bin:/bin", "HOME=/home/user", "TMPDIR=/work"}, tc.env...)}
	fsys := env.NewFS()
	// Create the files in name order, as runGNU does, so that native
	// listing orders agree.
	names := make([]string, 0, len(tc.files))
	for n := range tc.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		content, p := tc.files[n], "/work/"+n
		fsys.MkdirAll(path.Dir(p), 0o755)
		switch {
		case strings.HasSuffix(n, "/"):
			fsys.MkdirAll(p, 0o755)
		case strings.HasPrefix(content, "->"):
			fsys.SymlinkIfPossible(content[2:], p)
		default:
			f, err := fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte(content))
			f.Close()
		}
	}
	var times []string
	for n := range tc.files {
		if !strings.HasPrefix(tc.files[n], "->") && !isFresh(tc, n) {
			times = append(times, "/work/"+strings.TrimSuffix(n, "/"))
		}
	}
	sort.Slice(times, func(i, j int) bool { return len(times[i]) > len(times[j]) })
	for _, p := range times {
		fsys.Chtimes(p, fixedTime, fixedTime)
	}
	res := env.RunIn(fsys, cmd, tc.args...)
	stdout := res.Stdout
	if tc.unordered {
		stdout = sortLines(stdout)
	}
	return fmt.Sprintf("code %d\nstdout:\n%s\nstderr:\n%s\ntree:\n%s", res.Code, stdout, res.Stderr, guestTree(fsys, "/work", ""))
}

func guestTree(fsys builtins.FS, dir, rel string) string {
	var b strings.Builder
	entries, _ := fsys.ReadDir(dir)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		r := path.Join(rel, e.Name())
		describe(&b, r, e, func() string { t, _ := fsys.ReadlinkIfPossible(p); return t }, func() string {
			f, err := fsys.Open(p)
			if err != nil {
				return "<" + err.Error() + ">"
			}
			defer f.Close()
			d, _ := io.ReadAll(f)
			return string(d)
		})
		if e.IsDir() {
			b.WriteString(guestTree(fsys, p, r))
		}
	}
	return b.String()
}
