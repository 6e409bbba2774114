package tar_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
	tarcmd "github.com/bashbox/bashbox/coreutils/tar"
)

func TestMain(m *testing.M) { os.Exit(gnutest.Run(m)) }

type member struct {
	name, link string
	typ        byte
	data       string
}

func buildTar(t *testing.T, members []member) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range members {
		h := &tar.Header{Name: m.name, Linkname: m.link, Typeflag: m.typ, Mode: 0o644,
			ModTime: time.Unix(1700000000, 0), Format: tar.FormatGNU, Uname: "root", Gname: "root"}
		if m.typ == tar.TypeReg {
			h.Size = int64(len(m.data))
		}
		if m.typ == tar.TypeDir || m.typ == tar.TypeSymlink {
			h.Mode = 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(m.data))
	}
	tw.Close()
	return buf.Bytes()
}

func TestOptionErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		stdout string
		stderr string
		code   int
	}{
		{"no mode", []string{"tar", "-f", "x.tar"}, "", "tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\nTry 'tar --help' or 'tar --usage' for more information.\n", 2},
		{"two modes", []string{"tar", "-ct", "-f", "x.tar"}, "", "tar: You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option\nTry 'tar --help' or 'tar --usage' for more information.\n", 2},
		{"bad option", []string{"tar", "--frob"}, "", "tar: unrecognized option '--frob'\nTry 'tar --help' or 'tar --usage' for more information.\n", 64},
		{"bad short option", []string{"tar", "-cQf", "x.tar", "a"}, "", "tar: invalid option -- 'Q'\nTry 'tar --help' or 'tar --usage' for more information.\n", 64},
		{"missing argument", []string{"tar", "-tf"}, "", "tar: option requires an argument -- 'f'\nTry 'tar --help' or 'tar --usage' for more information.\n", 64},
		{"empty archive", []string{"tar", "-cf", "x.tar"}, "", "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n", 2},
		{"missing archive", []string{"tar", "-tf", "nope.tar"}, "", "tar: nope.tar: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n", 2},
		{"strip components", []string{"tar", "-xf", "x.tar", "--strip-components=x"}, "", "tar: x: Invalid number of elements\nTry 'tar --help' or 'tar --usage' for more information.\n", 2},
		{"missing -C", []string{"tar", "-xf", "a", "-C", "nope"}, "", "tar: nope: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n", 2},
		{"missing file", []string{"tar", "-cf", "/dev/null", "nope"}, "", "tar: nope: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n", 2},
		{"not an archive", []string{"tar", "-tf", "a"}, "", "tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n", 2},
		{"version", []string{"tar", "--version"}, "tar (bashbox) " + builtins.ReleaseVersion + "\n", "", 0},
		{"unsupported mode", []string{"tar", "--delete", "-f", "a"}, "", "tar: --delete: this mode is not supported by bashbox's tar (only -c, -x and -t)\n", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: map[string]string{"a": "garbage\n"}}).Run(tarcmd.Run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
	res := (&cmdtest.Env{}).Run(tarcmd.Run, "tar", "--help")
	if res.Code != 0 || !strings.HasPrefix(res.Stdout, "Usage: tar [OPTION...] [FILE]...\n") {
		t.Errorf("--help: %d %q", res.Code, res.Stdout)
	}
}

// TestRoundTrip archives a tree and extracts it elsewhere, with and
// without gzip, checking contents, modes, times and links.
func TestRoundTrip(t *testing.T) {
	for _, z := range []string{"", "z"} {
		env := &cmdtest.Env{Files: map[string]string{
			"src/d/a.txt": "alpha\n", "src/d/sub/b": "beta", "src/d/empty": "", "src/d/lnk": "->a.txt",
			"out/": "",
		}}
		fsys := env.NewFS()
		mtime := time.Date(2021, 5, 6, 7, 8, 9, 0, time.UTC)
		fsys.Chmod("/work/src/d/sub/b", 0o751)
		fsys.Chtimes("/work/src/d/a.txt", mtime, mtime)
		fsys.Chtimes("/work/src/d/sub", mtime, mtime)
		res := env.RunIn(fsys, tarcmd.Run, "tar", "-c"+z+"f", "x.tar", "-C", "src", "d")
		if res.Code != 0 || res.Stderr != "" {
			t.Fatalf("create: %d %q", res.Code, res.Stderr)
		}
		res = env.RunIn(fsys, tarcmd.Run, "tar", "-x"+z+"vf", "x.tar", "-C", "out")
		if res.Code != 0 || res.Stderr != "" {
			t.Fatalf("extract: %d %q", res.Code, res.Stderr)
		}
		if !strings.Contains(res.Stdout, "d/sub/b\n") {
			t.Errorf("verbose: %q", res.Stdout)
		}
		if got := cmdtest.ReadFile(t, fsys, "/work/out/d/a.txt"); got != "alpha\n" {
			t.Errorf("a.txt: %q", got)
		}
		if got := cmdtest.ReadFile(t, fsys, "/work/out/d/sub/b"); got != "beta" {
			t.Errorf("b: %q", got)
		}
		fi, _ := fsys.Stat("/work/out/d/sub/b")
		if fi.Mode().Perm() != 0o751 {
			t.Errorf("mode %v", fi.Mode())
		}
		for _, p := range []string{"/work/out/d/a.txt", "/work/out/d/sub"} {
			fi, _ := fsys.Stat(p)
			if !fi.ModTime().Equal(mtime) {
				t.Errorf("%s mtime %v", p, fi.ModTime())
			}
		}
		if target, err := fsys.ReadlinkIfPossible("/work/out/d/lnk"); err != nil || target != "a.txt" {
			t.Errorf("symlink: %q %v", target, err)
		}
	}
}

func TestToStdoutAndMembers(t *testing.T) {
	data := buildTar(t, []member{
		{name: "d/", typ: tar.TypeDir},
		{name: "d/a", typ: tar.TypeReg, data: "A\n"},
		{name: "d/b", typ: tar.TypeReg, data: "B\n"},
		{name: "e", typ: tar.TypeReg, data: "E\n"},
	})
	env := &cmdtest.Env{Files: map[string]string{"x.tar": string(data)}}
	res := env.Run(tarcmd.Run, "tar", "-xOf", "x.tar", "d", "nope")
	if res.Stdout != "A\nB\n" || res.Stderr != "tar: nope: Not found in archive\ntar: Exiting with failure status due to previous errors\n" || res.Code != 2 {
		t.Errorf("got %q %q %d", res.Stdout, res.Stderr, res.Code)
	}
	res = env.Run(tarcmd.Run, "tar", "-tf", "x.tar", "--exclude=a", "--exclude", "e")
	if res.Stdout != "d/\nd/b\n" || res.Code != 0 {
		t.Errorf("exclude: %q %d", res.Stdout, res.Code)
	}
	res = env.Run(tarcmd.Run, "tar", "tf", "x.tar", "--wildcards", "*/b")
	if res.Stdout != "d/b\n" || res.Code != 0 {
		t.Errorf("wildcards: %q %q %d", res.Stdout, res.Stderr, res.Code)
	}
}

func TestHardLinkMemberIsCopied(t *testing.T) {
	data := buildTar(t, []member{
		{name: "a", typ: tar.TypeReg, data: "content\n"},
		{name: "h", typ: tar.TypeLink, link: "a"},
	})
	env := &cmdtest.Env{Files: map[string]string{"x.tar": string(data)}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, tarcmd.Run, "tar", "-xf", "x.tar")
	if res.Code != 0 || res.Stderr != "" {
		t.Fatalf("%d %q", res.Code, res.Stderr)
	}
	if got := cmdtest.ReadFile(t, fsys, "/work/h"); got != "content\n" {
		t.Errorf("h: %q", got)
	}
	res = env.RunIn(fsys, tarcmd.Run, "tar", "-tvf", "x.tar")
	if !strings.HasSuffix(res.Stdout, " h link to a\n") || !strings.HasPrefix(strings.Split(res.Stdout, "\n")[1], "hrw-r--r-- root/root") {
		t.Errorf("listing: %q", res.Stdout)
	}
}

// malicious are archives that try to write outside the extraction
// directory. Extraction happens in /work/ex; nothing else may change.
var malicious = []struct {
	name    string
	members []member
	stdout  string
	stderr  string
}{
	{"dot-dot names", []member{
		{name: "../evil", typ: tar.TypeReg, data: "x"},
		{name: "ok.txt", typ: tar.TypeReg, data: "ok"},
		{name: "a/../../evil2", typ: tar.TypeReg, data: "x"},
		{name: "/abs/path", typ: tar.TypeReg, data: "x"},
		{name: "x/../y", typ: tar.TypeReg, data: "x"},
	}, "ok.txt\n/abs/path\n", "tar: Removing leading `../' from member names\n" +
		"tar: ../evil: Member name contains '..'\n" +
		"tar: Removing leading `a/../../' from member names\n" +
		"tar: a/../../evil2: Member name contains '..'\n" +
		"tar: Removing leading `/' from member names\n" +
		"tar: Removing leading `x/../' from member names\n" +
		"tar: x/../y: Member name contains '..'\n" +
		"tar: Exiting with failure status due to previous errors\n"},
	{"absolute symlink then a file through it", []member{
		{name: "a/b", typ: tar.TypeSymlink, link: "/work/outside"},
		{name: "a/b/c", typ: tar.TypeReg, data: "x"},
	}, "a/b\na/b/c\n", "tar: a/b/c: Cannot open: Not a directory\ntar: Exiting with failure status due to previous errors\n"},
	{"dot-dot symlink then a file through it", []member{
		{name: "d", typ: tar.TypeSymlink, link: ".."},
		{name: "d/esc", typ: tar.TypeReg, data: "x"},
	}, "d\nd/esc\n", "tar: d/esc: Cannot open: Not a directory\ntar: Exiting with failure status due to previous errors\n"},
	{"symlink to a directory then a directory through it", []member{
		{name: "up", typ: tar.TypeSymlink, link: "../outside"},
		{name: "up/sub/", typ: tar.TypeDir},
		{name: "up/sub/f", typ: tar.TypeReg, data: "x"},
	}, "up\nup/sub/\nup/sub/f\n", "tar: up/sub: Cannot mkdir: Not a directory\ntar: up/sub/f: Cannot open: Not a directory\ntar: Exiting with failure status due to previous errors\n"},
	{"hard links outside", []member{
		{name: "h", typ: tar.TypeLink, link: "../outside/secret"},
		{name: "h2", typ: tar.TypeLink, link: "/work/outside/secret"},
	}, "h\nh2\n", "tar: Removing leading `../' from hard link targets\n" +
		"tar: h: Cannot hard link to ‘outside/secret’: No such file or directory\n" +
		"tar: Removing leading `/' from hard link targets\n" +
		"tar: h2: Cannot hard link to ‘work/outside/secret’: No such file or directory\n" +
		"tar: Exiting with failure status due to previous errors\n"},
	{"hard link to a delayed symlink", []member{
		{name: "l", typ: tar.TypeSymlink, link: "/work/outside"},
		{name: "h", typ: tar.TypeLink, link: "l"},
		{name: "h/f", typ: tar.TypeReg, data: "x"},
	}, "l\nh\nh/f\n", "tar: h/f: Cannot open: Not a directory\ntar: Exiting with failure status due to previous errors\n"},
}

func TestMaliciousArchives(t *testing.T) {
	for _, tc := range malicious {
		t.Run(tc.name, func(t *testing.T) {
			data := buildTar(t, tc.members)
			env := &cmdtest.Env{Files: map[string]string{"ex/": "", "outside/secret": "s", "x.tar": string(data)}}
			fsys := env.NewFS()
			before := cmdtest.Snapshot(t, fsys, "/work", "/tmp", "/home")
			env.Dir = "/work/ex"
			res := env.RunIn(fsys, tarcmd.Run, "tar", "-xvf", "../x.tar")
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != 2 {
				t.Errorf("got (%q, %q, %d)\nwant (%q, %q, 2)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr)
			}
			after := cmdtest.Snapshot(t, fsys, "/work", "/tmp", "/home")
			for p, d := range after {
				if strings.HasPrefix(p, "/work/ex/") {
					continue
				}
				if before[p] != d {
					t.Errorf("outside the extraction directory: %s changed to %q", p, d)
				}
			}
			// Links made from the archive may point anywhere, but only
			// once everything else is extracted.
			for p, d := range after {
				if strings.HasPrefix(p, "/work/ex/") && strings.Contains(d, " -> ") {
					t.Logf("link %s %s", p, d)
				}
			}
			// The same archive with GNU tar, when it is installed.
			if _, err := exec.LookPath("tar"); err != nil {
				return
			}
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "ex"), 0o755)
			os.MkdirAll(filepath.Join(dir, "outside"), 0o755)
			os.WriteFile(filepath.Join(dir, "x.tar"), data, 0o644)
			want := cmdtest.RunHost(t, filepath.Join(dir, "ex"), cmdtest.HostDiffEnv, "tar", "-xvf", "../x.tar")
			if strings.Contains(tc.stderr, "/work/") {
				return // the host paths differ
			}
			if want.Stdout != res.Stdout || want.Stderr != res.Stderr || want.Code != res.Code {
				t.Errorf("GNU tar differs: (%q, %q, %d)", want.Stdout, want.Stderr, want.Code)
			}
		})
	}
}

// TestCreateMatchesGNU compares archive bytes with GNU tar's for the
// same tree, owner and order.
func TestCreateMatchesGNU(t *testing.T) {
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("tar not installed")
	}
	long := strings.Repeat("x", 120)
	setup := "mkdir -p d/sub/" + long + "; echo hello > d/a.txt; echo b > d/sub/b; : > d/empty; ln -s a.txt d/lnk; ln -s " +
		strings.Repeat("y", 130) + " d/longlink; echo f > d/sub/" + long + "/f; chmod 750 d/sub; chmod 600 d/sub/b; " +
		"find d -exec touch -h -d '2024-01-02 03:04:05' {} +"
	for _, args := range [][]string{
		// The sandbox cannot set a symlink's own mtime: --mtime covers it.
		{"tar", "--sort=name", "--owner=user:1000", "--group=user:1000", "--mtime=@1704164645", "-cf", "-", "d"},
		{"tar", "--sort=name", "--owner=user:1000", "--group=user:1000", "--mtime=@1600000000", "-cf", "-", "d/a.txt", "d/sub"},
		{"tar", "--sort=name", "--owner=someone:7", "--group=grp:8", "--mtime=2024-01-02 03:04:05", "-cf", "-", "-C", "d", "sub", "lnk"},
		{"tar", "--sort=name", "--owner=user:1000", "--group=user:1000", "--format=ustar", "-cf", "-", "d/a.txt"},
	} {
		dir, fsys := cmdtest.HostFixture(t, setup)
		got := (&cmdtest.Env{Env: cmdtest.HostDiffEnv}).RunIn(fsys, tarcmd.Run, args...)
		want := cmdtest.RunHost(t, dir, cmdtest.HostDiffEnv, args...)
		if got.Stdout != want.Stdout || got.Stderr != want.Stderr || got.Code != want.Code {
			t.Errorf("%q: archives differ (%d vs %d bytes), stderr %q vs %q", args, len(got.Stdout), len(want.Stdout), got.Stderr, want.Stderr)
		}
	}
}

// TestListMatchesGNU lists archives GNU tar made.
func TestListMatchesGNU(t *testing.T) {
	setup := "mkdir -p d/sub; echo hello > d/a.txt; echo b > d/sub/b; ln -s a.txt d/lnk; touch 'd/sp ace' \"d/new\nline\"; " +
		"find d -exec touch -h -d '2024-01-02 03:04:05' {} +; tar --sort=name --owner=someone:7 --group=grp:8 -cf x.tar d; " +
		"tar -czf x.tgz --sort=name d; tar -cf abs.tar -P \"$PWD/d/a.txt\" ../$(basename \"$PWD\")/d/sub/b 2>/dev/null"
	for _, args := range [][]string{
		{"tar", "-tf", "x.tar"},
		{"tar", "-tvf", "x.tar"},
		{"tar", "-tvf", "x.tar", "--numeric-owner"},
		{"tar", "-tvf", "x.tar", "--full-time", "d/sub"},
		{"tar", "-tzf", "x.tgz"},
		{"tar", "-tf", "x.tgz", "d/lnk", "nope"},
		{"tar", "-tf", "x.tar", "--exclude=*.txt", "--exclude", "sub"},
		{"tar", "tf", "x.tar", "d/s*"},
		{"tar", "-xOf", "x.tar", "d/a.txt", "d/sub"},
	} {
		cmdtest.CompareWithHost(t, strings.Join(args, " "), cmdtest.HostDiffEnv, tarcmd.Run, setup, nil, args...)
	}
}

func TestGzipArchiveFromStdinNeedsZ(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(buildTar(t, []member{{name: "a", typ: tar.TypeReg, data: "A"}}))
	zw.Close()
	env := &cmdtest.Env{Stdin: buf.String()}
	res := env.Run(tarcmd.Run, "tar", "-tf", "-")
	if res.Stderr != "tar: Archive is compressed. Use -z option\ntar: Error is not recoverable: exiting now\n" || res.Code != 2 {
		t.Errorf("%q %d", res.Stderr, res.Code)
	}
	res = env.Run(tarcmd.Run, "tar", "-tzf", "-")
	if res.Stdout != "a\n" || res.Code != 0 {
		t.Errorf("%q %q %d", res.Stdout, res.Stderr, res.Code)
	}
}

func TestKeepOldAndOverwrite(t *testing.T) {
	data := buildTar(t, []member{{name: "f", typ: tar.TypeReg, data: "new"}})
	env := &cmdtest.Env{Files: map[string]string{"x.tar": string(data), "f": "old", "t": "target"}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, tarcmd.Run, "tar", "-xkf", "x.tar")
	if res.Stderr != "tar: f: Cannot open: File exists\ntar: Exiting with failure status due to previous errors\n" || res.Code != 2 || cmdtest.ReadFile(t, fsys, "/work/f") != "old" {
		t.Errorf("-k: %q %d", res.Stderr, res.Code)
	}
	fsys.Remove("/work/f")
	fsys.SymlinkIfPossible("t", "/work/f")
	res = env.RunIn(fsys, tarcmd.Run, "tar", "-xf", "x.tar", "--overwrite")
	if res.Code != 0 || cmdtest.ReadFile(t, fsys, "/work/f") != "new" || cmdtest.ReadFile(t, fsys, "/work/t") != "target" {
		t.Errorf("--overwrite: %q %d", res.Stderr, res.Code)
	}
	if _, err := fsys.ReadlinkIfPossible("/work/f"); err == nil {
		t.Errorf("symlink kept")
	}
}

// TestLongListingWidths checks the growing owner/size column.
func TestLongListingWidths(t *testing.T) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range []*tar.Header{
		{Name: "a", Size: 1, Uname: "u", Gname: "g", Mode: 0o644, ModTime: time.Unix(0, 0)},
		{Name: "b", Size: 1, Uname: "a-very-long-user", Gname: "a-long-group", Mode: 0o4755, ModTime: time.Unix(0, 0)},
		{Name: "c", Size: 1, Uname: "u", Gname: "g", Mode: 0o644, ModTime: time.Unix(0, 0)},
	} {
		h.Typeflag = tar.TypeReg
		tw.WriteHeader(h)
		tw.Write([]byte("x"))
	}
	tw.Close()
	res := (&cmdtest.Env{Files: map[string]string{"x.tar": buf.String()}}).Run(tarcmd.Run, "tar", "-tvf", "x.tar")
	// As GNU tar prints it: the column only grows.
	want := "-rw-r--r-- u/g               1 1970-01-01 00:00 a\n" +
		"-rwsr-xr-x a-very-long-user/a-long-group 1 1970-01-01 00:00 b\n" +
		"-rw-r--r-- u/g                           1 1970-01-01 00:00 c\n"
	if res.Stdout != want {
		t.Errorf("got\n%s\nwant\n%s", res.Stdout, want)
	}
}
