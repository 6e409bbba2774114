package zip_test

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
	"github.com/bashbox/bashbox/coreutils/unzip"
	zipcmd "github.com/bashbox/bashbox/coreutils/zip"
)

func TestMain(m *testing.M) { os.Exit(gnutest.Run(m)) }

func openZip(t *testing.T, data []byte) *zip.Reader {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	return zr
}

func TestMessages(t *testing.T) {
	files := map[string]string{"a": "A\n", "d/b": "B\n", "d/c.txt": "C\n", "z": strings.Repeat("\x00", 100000)}
	for _, tc := range []struct {
		name   string
		args   []string
		stdout string
		code   int
	}{
		{"add", []string{"zip", "x.zip", "a"}, "  adding: a (stored 0%)\n", 0},
		{"deflated", []string{"zip", "x.zip", "z"}, "  adding: z (deflated 100%)\n", 0},
		{"dir without -r", []string{"zip", "x.zip", "d"}, "  adding: d/ (stored 0%)\n", 0},
		{"junk", []string{"zip", "-j", "x.zip", "d/b"}, "  adding: b (stored 0%)\n", 0},
		{"exclude", []string{"zip", "-r", "x.zip", "d", "-x", "*.txt"}, "  adding: d/ (stored 0%)\n  adding: d/b (stored 0%)\n", 0},
		{"include", []string{"zip", "-r", "x.zip", "d", "-i", "*.txt"}, "  adding: d/c.txt (stored 0%)\n", 0},
		{"not matched", []string{"zip", "x.zip", "a", "nope"}, "\tzip warning: name not matched: nope\n  adding: a (stored 0%)\n", 0},
		{"nothing", []string{"zip", "x.zip", "nope"}, "\tzip warning: name not matched: nope\n\nzip error: Nothing to do! (x.zip)\n", 12},
		{"no files", []string{"zip", "x.zip"}, "\nzip error: Nothing to do! (x.zip)\n", 12},
		{"bad short", []string{"zip", "-Q", "x.zip", "a"}, "\nzip error: Invalid command arguments (short option 'Q' not supported)\n", 16},
		{"quiet", []string{"zip", "-q", "x.zip", "a"}, "", 0},
		{"test", []string{"zip", "-T", "x.zip", "a"}, "  adding: a (stored 0%)\ntest of x.zip OK\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(zipcmd.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != "" || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.code)
			}
		})
	}
}

func TestUnknownLongOption(t *testing.T) {
	res := (&cmdtest.Env{}).Run(zipcmd.Run, "zip", "--frob", "x.zip", "a")
	if res.Stderr != "\nzip error: Invalid command arguments (long option 'frob' not supported)\n" || res.Code != 16 || res.Stdout != "" {
		t.Errorf("%q %q %d", res.Stdout, res.Stderr, res.Code)
	}
}

func TestRoundTripWithUnzip(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{
		"src/d/a": strings.Repeat("line of text\n", 400), "src/d/sub/b": "b", "src/d/l": "->a", "out/": "",
	}, Env: []string{"TZ=UTC"}}
	fsys := env.NewFS()
	mtime := time.Date(2022, 2, 3, 4, 5, 7, 0, time.UTC)
	fsys.Chmod("/work/src/d/sub/b", 0o700)
	fsys.Chtimes("/work/src/d/sub/b", mtime, mtime)
	env.Dir = "/work/src"
	res := env.RunIn(fsys, zipcmd.Run, "zip", "-ry", "../x.zip", "d")
	if res.Code != 0 || !strings.Contains(res.Stdout, "  adding: d/a (deflated 9") {
		t.Fatalf("%d %q %q", res.Code, res.Stdout, res.Stderr)
	}
	zr := openZip(t, []byte(cmdtest.ReadFile(t, fsys, "/work/x.zip")))
	if len(zr.File) != 5 {
		t.Errorf("%d members", len(zr.File))
	}
	env.Dir = "/work/out"
	res = env.RunIn(fsys, unzip.Run, "unzip", "-q", "../x.zip")
	if res.Code != 0 || res.Stderr != "" {
		t.Fatalf("unzip: %d %q", res.Code, res.Stderr)
	}
	if got := cmdtest.ReadFile(t, fsys, "/work/out/d/a"); got != strings.Repeat("line of text\n", 400) {
		t.Errorf("a: %d bytes", len(got))
	}
	fi, _ := fsys.Stat("/work/out/d/sub/b")
	if fi.Mode().Perm() != 0o700 || !fi.ModTime().Equal(mtime) {
		t.Errorf("b: %v %v", fi.Mode(), fi.ModTime())
	}
	if target, err := fsys.ReadlinkIfPossible("/work/out/d/l"); err != nil || target != "a" {
		t.Errorf("link: %q %v", target, err)
	}
}

func TestUpdateDeleteMove(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"a": "A", "b": "B"}}
	fsys := env.NewFS()
	env.RunIn(fsys, zipcmd.Run, "zip", "-q", "x.zip", "a", "b")
	w, _ := fsys.Create("/work/a")
	w.Write([]byte("A2"))
	w.Close()
	res := env.RunIn(fsys, zipcmd.Run, "zip", "x.zip", "a")
	if res.Stdout != "updating: a (stored 0%)\n" {
		t.Errorf("update: %q", res.Stdout)
	}
	res = env.RunIn(fsys, zipcmd.Run, "zip", "-d", "x.zip", "b")
	if res.Stdout != "deleting: b\n" || res.Code != 0 {
		t.Errorf("delete: %q %d", res.Stdout, res.Code)
	}
	zr := openZip(t, []byte(cmdtest.ReadFile(t, fsys, "/work/x.zip")))
	if len(zr.File) != 1 || zr.File[0].Name != "a" {
		t.Fatalf("members %v", zr.File)
	}
	rc, _ := zr.File[0].Open()
	b, _ := io.ReadAll(rc)
	if string(b) != "A2" {
		t.Errorf("a: %q", b)
	}
	res = env.RunIn(fsys, zipcmd.Run, "zip", "-m", "y.zip", "b")
	if _, err := fsys.Stat("/work/b"); err == nil || res.Code != 0 {
		t.Errorf("move kept b: %d", res.Code)
	}
}

func TestStdinAndStdout(t *testing.T) {
	res := (&cmdtest.Env{Stdin: "piped\n"}).Run(zipcmd.Run, "zip", "-", "-")
	if res.Stderr != "  adding: - (stored 0%)\n" || res.Code != 0 {
		t.Fatalf("%q %d", res.Stderr, res.Code)
	}
	zr := openZip(t, []byte(res.Stdout))
	rc, _ := zr.File[0].Open()
	b, _ := io.ReadAll(rc)
	if zr.File[0].Name != "-" || string(b) != "piped\n" {
		t.Errorf("%q %q", zr.File[0].Name, b)
	}
}

// TestInfoZIPReadsOurArchives has Info-ZIP's unzip test and list what we
// write, and compares our "adding" lines with zip's for stored members.
func TestInfoZIPReadsOurArchives(t *testing.T) {
	if _, err := exec.LookPath("unzip"); err != nil {
		t.Skip("unzip not installed")
	}
	env := &cmdtest.Env{Files: map[string]string{
		"d/a": strings.Repeat("text ", 3000), "d/e": "", "d/sub/b": "small\n",
	}, Env: []string{"TZ=UTC"}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, zipcmd.Run, "zip", "-r9", "x.zip", "d")
	if res.Code != 0 {
		t.Fatalf("%d %q", res.Code, res.Stdout)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.zip")
	if err := os.WriteFile(path, []byte(cmdtest.ReadFile(t, fsys, "/work/x.zip")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("unzip", "-t", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "No errors detected") {
		t.Errorf("unzip -t: %v\n%s", err, out)
	}
	cmd := exec.Command("unzip", "-l", path)
	cmd.Env = []string{"TZ=UTC"}
	hostList, _ := cmd.Output()
	ours := env.RunIn(fsys, unzip.Run, "unzip", "-l", "x.zip")
	if strings.Replace(string(hostList), path, "x.zip", 1) != ours.Stdout {
		t.Errorf("listing differs:\n%s\n%s", hostList, ours.Stdout)
	}

	if _, err := exec.LookPath("zip"); err != nil {
		return
	}
	setup := "mkdir -p d/sub; echo a > d/a; : > d/sub/e; printf 'x' > d/sub/x; find d -exec touch -d '2024-01-02 03:04:05' {} +"
	for _, args := range [][]string{
		{"zip", "-r", "x.zip", "d"},
		{"zip", "-rj", "x.zip", "d"},
		{"zip", "-rD", "x.zip", "d", "-x", "*/x"},
		{"zip", "x.zip", "d/a", "nope"},
		{"zip", "-d", "x.zip", "a"},
	} {
		dir, fsys := cmdtest.NewHostFixture(t, setup)
		want := cmdtest.RunHost(t, dir, cmdtest.HostDiffEnv, args...)
		got := (&cmdtest.Env{Env: cmdtest.HostDiffEnv}).RunIn(fsys, zipcmd.Run, args...)
		// Directory order is the filesystem's: compare sorted lines.
		sortLines := func(s string) string {
			l := strings.Split(s, "\n")
			sortStrings(l)
			return strings.Join(l, "\n")
		}
		if sortLines(got.Stdout) != sortLines(want.Stdout) || got.Stderr != want.Stderr || got.Code != want.Code {
			t.Errorf("%q: got %q %q %d, want %q %q %d", args, got.Stdout, got.Stderr, got.Code, want.Stdout, want.Stderr, want.Code)
		}
	}
}

func sortStrings(l []string) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j] < l[j-1]; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}
