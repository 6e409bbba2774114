package unzip_test

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
	"github.com/bashbox/bashbox/coreutils/unzip"
)

func TestMain(m *testing.M) { os.Exit(gnutest.Run(m)) }

type member struct {
	name, data string
	mode       fs.FileMode
}

var stamp = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func buildZip(t *testing.T, members []member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		h := &zip.FileHeader{Name: m.name, Method: zip.Store, Modified: stamp}
		mode := m.mode
		if mode == 0 {
			mode = 0o644
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, m.data)
	}
	zw.Close()
	return buf.Bytes()
}

func TestListing(t *testing.T) {
	data := buildZip(t, []member{{name: "d/", mode: fs.ModeDir | 0o755}, {name: "d/a", data: "hello\n"}, {name: "b", data: "x"}})
	env := &cmdtest.Env{Files: map[string]string{"x.zip": string(data)}, Env: []string{"TZ=UTC"}}
	res := env.Run(unzip.Run, "unzip", "-l", "x.zip")
	want := "Archive:  x.zip\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n" +
		"        0  2024-01-02 03:04   d/\n        6  2024-01-02 03:04   d/a\n        1  2024-01-02 03:04   b\n" +
		"---------                     -------\n        7                     3 files\n"
	if res.Stdout != want || res.Code != 0 {
		t.Errorf("got\n%s%q %d", res.Stdout, res.Stderr, res.Code)
	}
	res = env.Run(unzip.Run, "unzip", "-v", "x.zip", "b")
	want = "Archive:  x.zip\n Length   Method    Size  Cmpr    Date    Time   CRC-32   Name\n--------  ------  ------- ---- ---------- ----- --------  ----\n" +
		"       1  Stored        1   0% 2024-01-02 03:04 8cdc1683  b\n" +
		"--------          -------  ---                            -------\n       1                1   0%                            1 file\n"
	if res.Stdout != want || res.Code != 0 {
		t.Errorf("got\n%s%q %d", res.Stdout, res.Stderr, res.Code)
	}
}

func TestMessages(t *testing.T) {
	data := buildZip(t, []member{{name: "a", data: "A\n"}, {name: "b", data: "B\n"}})
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		stdout string
		stderr string
		code   int
	}{
		{"missing zip", []string{"unzip", "nope"}, "", "", "unzip:  cannot find or open nope, nope.zip or nope.ZIP.\n", 9},
		{"not a zip", []string{"unzip", "bad.zip"}, "", "Archive:  bad.zip\n", "  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n  latter case the central directory and zipfile comment will be found on\n  the last disk(s) of this archive.\nunzip:  cannot find zipfile directory in one of bad.zip or\n        bad.zip.zip, and cannot find bad.zip.ZIP, period.\n", 9},
		{"not matched", []string{"unzip", "-p", "x.zip", "b", "nope"}, "", "B\n", "caution: filename not matched:  nope\n", 11},
		{"prompt no", []string{"unzip", "x.zip", "a"}, "n\n", "Archive:  x.zip\n", "replace a? [y]es, [n]o, [A]ll, [N]one, [r]ename: ", 0},
		{"prompt eof", []string{"unzip", "x.zip"}, "", "Archive:  x.zip\n extracting: b                       \n", "replace a? [y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n(EOF or read error, treating as \"[N]one\" ...)\n", 1},
		{"prompt rename", []string{"unzip", "x.zip", "a"}, "r\nc\n", "Archive:  x.zip\n extracting: c                       \n", "replace a? [y]es, [n]o, [A]ll, [N]one, [r]ename: new name: ", 0},
		{"prompt invalid", []string{"unzip", "x.zip", "a"}, "Q\ny\n", "Archive:  x.zip\n extracting: a                       \n", "replace a? [y]es, [n]o, [A]ll, [N]one, [r]ename: error:  invalid response [Q]\nreplace a? [y]es, [n]o, [A]ll, [N]one, [r]ename: ", 0},
		{"never", []string{"unzip", "-n", "x.zip"}, "", "Archive:  x.zip\n extracting: b                       \n", "", 0},
		{"test", []string{"unzip", "-t", "x.zip"}, "", "Archive:  x.zip\n    testing: a                        OK\n    testing: b                        OK\nNo errors detected in compressed data of x.zip.\n", "", 0},
		{"console", []string{"unzip", "-c", "x.zip", "a"}, "", "Archive:  x.zip\n extracting: a                       \nA\n\n", "", 0},
		{"bad option", []string{"unzip", "-Q", "x.zip"}, "", "", "", 10},
		{"version", []string{"unzip", "--version"}, "", "unzip (bashbox) " + builtins.ReleaseVersion + "\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := &cmdtest.Env{Files: map[string]string{"x.zip": string(data), "bad.zip": "nope\n", "a": "old\n"}, Stdin: tc.stdin}
			res := env.Run(unzip.Run, tc.args...)
			if tc.name == "bad option" {
				res.Stderr = ""
			}
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
}

func TestExtractModesAndDirs(t *testing.T) {
	data := buildZip(t, []member{{name: "d/", mode: fs.ModeDir | 0o750}, {name: "d/x", data: "X", mode: 0o4751}, {name: "e/f/g", data: "G"}})
	env := &cmdtest.Env{Files: map[string]string{"x.zip": string(data)}, Env: []string{"TZ=UTC"}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, unzip.Run, "unzip", "-d", "out", "x.zip")
	want := "Archive:  x.zip\n   creating: out/d/\n extracting: out/d/x                 \n extracting: out/e/f/g               \n"
	if res.Stdout != want || res.Code != 0 {
		t.Errorf("got %q %q %d", res.Stdout, res.Stderr, res.Code)
	}
	fi, _ := fsys.Stat("/work/out/d/x")
	if fi.Mode() != 0o751 || !fi.ModTime().Equal(stamp) {
		t.Errorf("d/x: %v %v", fi.Mode(), fi.ModTime())
	}
	fi, _ = fsys.Stat("/work/out/d")
	if fi.Mode().Perm() != 0o750 {
		t.Errorf("d: %v", fi.Mode())
	}
	if cmdtest.ReadFile(t, fsys, "/work/out/e/f/g") != "G" {
		t.Errorf("g")
	}
}

var malicious = []struct {
	name    string
	members []member
	stdout  string
	stderr  string
	code    int
}{
	{"dot-dot components", []member{{name: "../evil", data: "x"}, {name: "a/../../evil2", data: "x"}, {name: "./ok", data: "ok"}},
		"Archive:  ../x.zip\nwarning:  skipped \"../\" path component(s) in ../evil\n extracting: evil                    \n" +
			"warning:  skipped \"../\" path component(s) in a/../../evil2\n extracting: a/evil2                 \n extracting: ok                      \n",
		"", 1},
	{"absolute path", []member{{name: "/abs/path", data: "x"}},
		"Archive:  ../x.zip\n extracting: abs/path                \n", "warning:  stripped absolute path spec from /abs/path\n", 1},
	{"symlink then a file through it", []member{{name: "lnk", data: "../outside", mode: fs.ModeSymlink | 0o777}, {name: "lnk/through", data: "x"}},
		"Archive:  ../x.zip\n    linking: lnk                     -> ../outside \nfinishing deferred symbolic links:\n  lnk                    -> ../outside\n",
		"checkdir error:  lnk exists but is not directory\n                 unable to process lnk/through.\n", 2},
	{"symlink to parent then a directory through it", []member{{name: "up", data: "..", mode: fs.ModeSymlink | 0o777}, {name: "up/d/", mode: fs.ModeDir | 0o755}, {name: "up/d/f", data: "x"}},
		"Archive:  ../x.zip\n    linking: up                      -> .. \nfinishing deferred symbolic links:\n  up                     -> ..\n",
		"checkdir error:  up exists but is not directory\n                 unable to process up/d/.\ncheckdir error:  up exists but is not directory\n                 unable to process up/d/f.\n", 2},
}

func TestMaliciousArchives(t *testing.T) {
	for _, tc := range malicious {
		t.Run(tc.name, func(t *testing.T) {
			data := buildZip(t, tc.members)
			env := &cmdtest.Env{Files: map[string]string{"ex/": "", "outside/secret": "s", "x.zip": string(data)}, Dir: "/work/ex"}
			fsys := env.NewFS()
			before := cmdtest.Snapshot(t, fsys, "/work", "/tmp", "/home")
			res := env.RunIn(fsys, unzip.Run, "unzip", "../x.zip")
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d)\nwant (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
			for p, d := range cmdtest.Snapshot(t, fsys, "/work", "/tmp", "/home") {
				if !strings.HasPrefix(p, "/work/ex/") && before[p] != d {
					t.Errorf("outside the extraction directory: %s changed to %q", p, d)
				}
			}
			if _, err := exec.LookPath("unzip"); err != nil {
				return
			}
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "ex"), 0o755)
			os.MkdirAll(filepath.Join(dir, "outside"), 0o755)
			os.WriteFile(filepath.Join(dir, "x.zip"), data, 0o644)
			want := cmdtest.RunHost(t, filepath.Join(dir, "ex"), cmdtest.HostDiffEnv, "unzip", "../x.zip")
			if want.Stdout != res.Stdout || want.Stderr != res.Stderr || want.Code != res.Code {
				t.Errorf("Info-ZIP differs: (%q, %q, %d)", want.Stdout, want.Stderr, want.Code)
			}
		})
	}
}

// TestListMatchesInfoZIP lists archives Info-ZIP's zip made.
func TestListMatchesInfoZIP(t *testing.T) {
	if _, err := exec.LookPath("zip"); err != nil {
		t.Skip("zip not installed")
	}
	setup := "mkdir -p d/sub; seq 1000 > d/n; echo a > d/a; : > d/sub/e; find d -exec touch -d '2024-01-02 03:04:05' {} +; " +
		"zip -qr x.zip d; zip -qr9 y.zip d/n; zip -q0 z.zip d/n"
	for _, args := range [][]string{
		{"unzip", "-l", "x.zip"},
		{"unzip", "-v", "x.zip"},
		{"unzip", "-v", "y.zip"},
		{"unzip", "-v", "z.zip"},
		{"unzip", "-t", "x.zip"},
		{"unzip", "-tq", "x.zip"},
		{"unzip", "-t", "x.zip", "d/n", "nope"},
		{"unzip", "-lq", "x.zip"},
		{"unzip", "-lqq", "x.zip"},
		{"unzip", "-v", "x.zip", "nope"},
		{"unzip", "-p", "x.zip", "d/a", "-x", "nope"},
		{"unzip", "-l", "x.zip", "*/n", "d/sub/*", "nope"},
		{"unzip", "-p", "x.zip", "d/a"},
		{"unzip", "-l", "x", "-x", "d/n"},
	} {
		cmdtest.CompareWithHost(t, strings.Join(args, " "), cmdtest.HostDiffEnv, unzip.Run, setup, nil, args...)
	}
	// Extraction of Info-ZIP's archive into a fresh directory.
	dir, fsys := cmdtest.NewHostFixture(t, setup+"; mkdir o")
	want := cmdtest.RunHost(t, dir, cmdtest.HostDiffEnv, "unzip", "x.zip", "-d", "o")
	got := (&cmdtest.Env{Env: cmdtest.HostDiffEnv}).RunIn(fsys, unzip.Run, "unzip", "x.zip", "-d", "o")
	if got.Stdout != want.Stdout || got.Stderr != want.Stderr || got.Code != want.Code {
		t.Errorf("extract: got %q %q %d, want %q %q %d", got.Stdout, got.Stderr, got.Code, want.Stdout, want.Stderr, want.Code)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "o/d/n"))
	if cmdtest.ReadFile(t, fsys, "/work/o/d/n") != string(b) {
		t.Errorf("o/d/n differs")
	}
}
