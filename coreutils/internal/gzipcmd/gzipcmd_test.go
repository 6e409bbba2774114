package gzipcmd_test

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gzipcmd"
)

func TestMain(m *testing.M) {
	code := m.Run()
	cmdtest.RemoveFixtures()
	os.Exit(code)
}

func cmd(mode gzipcmd.Mode) builtins.Command {
	return func(ctx context.Context, c *builtins.Call) int { return gzipcmd.Run(ctx, c, mode) }
}

var (
	gzipRun   = cmd(gzipcmd.Gzip)
	gunzipRun = cmd(gzipcmd.Gunzip)
	zcatRun   = cmd(gzipcmd.Zcat)
)

func readFile(t *testing.T, fsys builtins.FS, name string) string {
	t.Helper()
	f, err := fsys.Open(name)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	return string(b)
}

func exists(fsys builtins.FS, name string) bool {
	_, _, err := fsys.LstatIfPossible(name)
	return err == nil
}

// hello is "hello\n" compressed by GNU gzip with the name "h" and mtime
// 2024-01-02 03:04:05 UTC.
const hello = "\x1f\x8b\x08\x08\x25\x7d\x93\x65\x00\x03h\x00\xcb\x48\xcd\xc9\xc9\xe7\x02\x00\x20\x30\x3a\x36\x06\x00\x00\x00"

func TestCompressDecompressInPlace(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"f": strings.Repeat("some text\n", 500)}}
	fsys := env.NewFS()
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	fsys.Chmod("/work/f", 0o640)
	fsys.Chtimes("/work/f", mtime, mtime)
	res := env.RunIn(fsys, gzipRun, "gzip", "f")
	if res.Code != 0 || res.Stderr != "" || exists(fsys, "/work/f") || !exists(fsys, "/work/f.gz") {
		t.Fatalf("gzip: %d %q", res.Code, res.Stderr)
	}
	fi, _ := fsys.Stat("/work/f.gz")
	if fi.Mode().Perm() != 0o640 || !fi.ModTime().Equal(mtime) {
		t.Errorf("f.gz: %v %v", fi.Mode(), fi.ModTime())
	}
	// The header holds the name, the mtime and OS=3, as gzip writes it.
	raw := readFile(t, fsys, "/work/f.gz")
	if raw[3] != 8 || raw[9] != 3 || !strings.HasPrefix(raw[10:], "f\x00") {
		t.Errorf("header %q", raw[:12])
	}
	res = env.RunIn(fsys, gunzipRun, "gunzip", "f.gz")
	if res.Code != 0 || res.Stderr != "" || readFile(t, fsys, "/work/f") != strings.Repeat("some text\n", 500) || exists(fsys, "/work/f.gz") {
		t.Fatalf("gunzip: %d %q", res.Code, res.Stderr)
	}
	fi, _ = fsys.Stat("/work/f")
	if fi.Mode().Perm() != 0o640 || !fi.ModTime().Equal(mtime) {
		t.Errorf("f: %v %v", fi.Mode(), fi.ModTime())
	}
}

func TestStdinRoundTripAllLevels(t *testing.T) {
	data := strings.Repeat("0123456789abcdef", 4096)
	for _, lvl := range []string{"-1", "-5", "-9", "--fast", "--best"} {
		res := (&cmdtest.Env{Stdin: data}).Run(gzipRun, "gzip", lvl)
		if res.Code != 0 {
			t.Fatalf("%s: %d %q", lvl, res.Code, res.Stderr)
		}
		out := (&cmdtest.Env{Stdin: res.Stdout}).Run(zcatRun, "zcat")
		if out.Stdout != data || out.Code != 0 {
			t.Errorf("%s: round trip failed: %q", lvl, out.Stderr)
		}
		// Standard gzip readers accept it.
		zr, err := gzip.NewReader(strings.NewReader(res.Stdout))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(zr)
		if string(b) != data || zr.Name != "" || !zr.ModTime.IsZero() {
			t.Errorf("%s: header %q %v", lvl, zr.Name, zr.ModTime)
		}
	}
}

func TestMessages(t *testing.T) {
	files := map[string]string{
		"f": "x\n", "f.gz": "old", "d/": "", "h.gz": hello, "bad.gz": "not gzip\n",
		"txt": "plain\n", "l": "->f", "e.gz": "",
		"garb.gz": hello + "junk", "zeros.gz": hello + "\x00\x00\x00",
		"trunc.gz": hello[:20], "crc.gz": hello[:len(hello)-8] + "\x00\x00\x00\x00" + hello[len(hello)-4:],
	}
	for _, tc := range []struct {
		name   string
		run    builtins.Command
		args   []string
		stdout string
		stderr string
		code   int
	}{
		{"missing", gzipRun, []string{"gzip", "nope"}, "", "gzip: nope: No such file or directory\n", 1},
		{"gunzip missing", gunzipRun, []string{"gunzip", "nope"}, "", "gzip: nope.gz: No such file or directory\n", 1},
		{"exists", gzipRun, []string{"gzip", "f"}, "", "gzip: f.gz already exists;\tnot overwritten\n", 2},
		{"directory", gzipRun, []string{"gzip", "d"}, "", "gzip: d is a directory -- ignored\n", 2},
		{"quiet directory", gzipRun, []string{"gzip", "-q", "d"}, "", "", 2},
		{"has suffix", gzipRun, []string{"gzip", "h.gz"}, "", "gzip: h.gz already has .gz suffix -- unchanged\n", 0},
		{"symlink", gzipRun, []string{"gzip", "l"}, "", "gzip: l: Too many levels of symbolic links\n", 1},
		{"unknown suffix", gunzipRun, []string{"gunzip", "txt"}, "", "gzip: txt: unknown suffix -- ignored\n", 2},
		{"quiet unknown suffix", gunzipRun, []string{"gunzip", "-q", "txt"}, "", "", 0},
		{"not gzip", zcatRun, []string{"zcat", "bad.gz"}, "", "\ngzip: bad.gz: not in gzip format\n", 1},
		{"force cat", zcatRun, []string{"zcat", "-f", "txt", "h.gz"}, "plain\nhello\n", "", 0},
		{"empty", gunzipRun, []string{"gunzip", "-c", "e.gz"}, "", "\ngzip: e.gz: unexpected end of file\n", 1},
		{"trailing garbage", zcatRun, []string{"zcat", "garb.gz"}, "hello\n", "\ngzip: garb.gz: decompression OK, trailing garbage ignored\n", 2},
		{"trailing zeros", zcatRun, []string{"zcat", "zeros.gz"}, "hello\n", "", 0},
		{"truncated", gzipRun, []string{"gzip", "-t", "trunc.gz"}, "", "\ngzip: trunc.gz: unexpected end of file\n", 1},
		{"crc", gzipRun, []string{"gzip", "-t", "crc.gz"}, "", "\ngzip: crc.gz: invalid compressed data--crc error\n", 1},
		{"test verbose", gzipRun, []string{"gzip", "-tv", "h.gz"}, "", "h.gz:\t OK\n", 0},
		{"list", gzipRun, []string{"gzip", "-l", "h.gz"}, "         compressed        uncompressed  ratio uncompressed_name\n                 28                   6 -33.3% h\n", "", 0},
		{"list totals", gzipRun, []string{"gzip", "-lq", "h.gz", "h.gz"}, "                 28                   6 -33.3% h\n                 28                   6 -33.3% h\n", "", 0},
		{"list N verbose", gzipRun, []string{"gzip", "-lvN", "h.gz"}, "method  crc     date  time           compressed        uncompressed  ratio uncompressed_name\ndefla 363a3020 Jan  2 03:04                  28                   6 -33.3% h\n", "", 0},
		{"bad option", gzipRun, []string{"gzip", "--frob"}, "", "gzip: unrecognized option '--frob'\nTry `gzip --help' for more information.\n", 1},
		{"version", gunzipRun, []string{"gunzip", "--version"}, "gunzip (bashbox) " + builtins.ReleaseVersion + "\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := (&cmdtest.Env{Files: files}).Run(tc.run, tc.args...)
			if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.Code != tc.code {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", res.Stdout, res.Stderr, res.Code, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
}

func TestNameRestore(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"other.gz": hello}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, gunzipRun, "gunzip", "-N", "other.gz")
	if res.Code != 0 || readFile(t, fsys, "/work/h") != "hello\n" || exists(fsys, "/work/other.gz") {
		t.Fatalf("%d %q", res.Code, res.Stderr)
	}
	fi, _ := fsys.Stat("/work/h")
	if !fi.ModTime().Equal(time.Unix(0x65937d25, 0)) {
		t.Errorf("mtime %v", fi.ModTime())
	}
}

func TestRecursive(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"d/a": "a", "d/e/b": "b", "d/c.gz": "x"}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, gzipRun, "gzip", "-r", "d")
	if res.Code != 0 || res.Stderr != "" || !exists(fsys, "/work/d/a.gz") || !exists(fsys, "/work/d/e/b.gz") || !exists(fsys, "/work/d/c.gz") {
		t.Fatalf("%d %q", res.Code, res.Stderr)
	}
	res = env.RunIn(fsys, gunzipRun, "gunzip", "-rk", "d/e")
	if res.Code != 0 || readFile(t, fsys, "/work/d/e/b") != "b" || !exists(fsys, "/work/d/e/b.gz") {
		t.Fatalf("%d %q", res.Code, res.Stderr)
	}
}

// TestInteropWithGNU checks that GNU gzip reads what we write and that we
// read what it writes, and compares messages on the same files.
func TestInteropWithGNU(t *testing.T) {
	if _, err := exec.LookPath("gzip"); err != nil {
		t.Skip("gzip not installed")
	}
	data := strings.Repeat("interop line\n", 3000)
	res := (&cmdtest.Env{Stdin: data}).Run(gzipRun, "gzip", "-9")
	c := exec.Command("gzip", "-dc")
	c.Stdin = strings.NewReader(res.Stdout)
	out, err := c.Output()
	if err != nil || string(out) != data {
		t.Errorf("GNU gunzip of our output: %v", err)
	}
	c = exec.Command("gzip", "-c")
	c.Stdin = strings.NewReader(data)
	gz, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := (&cmdtest.Env{Stdin: string(gz) + string(gz)}).Run(zcatRun, "zcat")
	if got.Stdout != data+data || got.Code != 0 {
		t.Errorf("zcat of GNU output: %q %d", got.Stderr, got.Code)
	}

	setup := "seq 2000 > n; gzip -k n; cp n.gz m.gz; printf 'x' | gzip > s.gz; touch -d '2023-03-04 05:06:07' n.gz m.gz s.gz; " +
		"head -c 50 n.gz > tr.gz; echo bad > bad.gz; cp n.gz g.gz; echo garbage >> g.gz; printf 'plain\\n' > p"
	for _, args := range [][]string{
		{"gzip", "-l", "n.gz"},
		{"gzip", "-l", "n.gz", "m.gz", "s.gz"},
		{"gzip", "-lv", "n.gz", "s.gz"},
		{"gzip", "-lvN", "n.gz"},
		{"gzip", "-ln", "s.gz"},
		{"gzip", "-t", "n.gz", "tr.gz", "bad.gz", "g.gz"},
		{"gzip", "-tv", "n.gz", "m.gz"},
		{"gzip", "-dc", "g.gz"},
		{"gzip", "-dcf", "p", "s.gz"},
		{"gzip", "-l", "nope", "bad.gz"},
	} {
		run := gzipRun
		cmdtest.CompareWithHost(t, strings.Join(args, " "), cmdtest.HostDiffEnv, run, setup, nil, args...)
	}
	// gunzip -v of a GNU-made file: the ratio comes from its stream.
	dir, fsys := cmdtest.NewHostFixture(t, setup)
	want := cmdtest.RunHost(t, dir, cmdtest.HostDiffEnv, "gzip", "-dv", "m.gz")
	gotv := (&cmdtest.Env{Env: cmdtest.HostDiffEnv}).RunIn(fsys, gunzipRun, "gunzip", "-v", "m.gz")
	if gotv.Stderr != want.Stderr || gotv.Code != want.Code {
		t.Errorf("gunzip -v: %q vs %q", gotv.Stderr, want.Stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "m"))
	if readFile(t, fsys, "/work/m") != string(b) {
		t.Errorf("gunzip output differs")
	}
}
