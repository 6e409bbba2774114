package patch_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/patch"
)

// scenario is a patch run over a set of files, by both GNU patch and ours.
type scenario struct {
	name  string
	files map[string]string // "dir/" makes a directory, "->t" a symlink, "!x" an executable file
	args  []string
	stdin string
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		mode := fs.FileMode(0o644)
		if c, ok := strings.CutPrefix(content, "!x"); ok {
			content, mode = c, 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
}

// hostTree lists a host directory: path, mode and content of each entry.
func hostTree(root string) string {
	var lines []string
	filepath.Walk(root, func(p string, info fs.FileInfo, err error) error {
		if err != nil || p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(p)
			line += " -> " + t
		case info.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			line += fmt.Sprintf(" %q", data)
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// guestTree lists the sandbox's /work the same way.
func guestTree(fsys builtins.FS, root string) string {
	var lines []string
	var walk func(dir, rel string)
	walk = func(dir, rel string) {
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := dir + "/" + e.Name()
			r := e.Name()
			if rel != "" {
				r = rel + "/" + e.Name()
			}
			fi, _, err := fsys.LstatIfPossible(p)
			if err != nil {
				continue
			}
			line := fmt.Sprintf("%s %v", r, fi.Mode())
			switch {
			case fi.Mode()&fs.ModeSymlink != 0:
				t, _ := fsys.ReadlinkIfPossible(p)
				line += " -> " + t
			case fi.Mode().IsRegular():
				f, _ := fsys.Open(p)
				var b bytes.Buffer
				b.ReadFrom(f)
				f.Close()
				line += fmt.Sprintf(" %q", b.Bytes())
			}
			lines = append(lines, line)
			if fi.IsDir() {
				walk(p, r)
			}
		}
	}
	walk(root, "")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func runGNU(t *testing.T, sc scenario) (string, string, int, string) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, sc.files)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/usr/bin/patch", sc.args...)
	cmd.Args[0] = "patch"
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "TZ=UTC"}
	cmd.Stdin = strings.NewReader(sc.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		code = gnuHung // GNU patch itself loops on some damaged input
	}
	return out.String(), errb.String(), code, hostTree(dir)
}

const gnuHung = -1000

func runOurs(sc scenario) (string, string, int, string) {
	files := map[string]string{}
	exec := map[string]bool{}
	for k, v := range sc.files {
		if c, ok := strings.CutPrefix(v, "!x"); ok {
			v = c
			exec[k] = true
		}
		files[k] = v
	}
	env := cmdtest.Env{Files: files, Stdin: sc.stdin, Env: []string{"LC_ALL=C.UTF-8", "TZ=UTC"}}
	fsys := env.NewFS()
	for k := range files {
		if strings.HasSuffix(k, "/") || strings.HasPrefix(files[k], "->") {
			continue
		}
		mode := fs.FileMode(0o644)
		if exec[k] {
			mode = 0o755
		}
		fsys.Chmod("/work/"+k, mode)
	}
	withUmask := func(ctx context.Context, c *builtins.Call) int {
		c.Umask = 0o022 // the shell's default, as in a box
		return patch.Run(ctx, c)
	}
	r := env.RunIn(fsys, withUmask, append([]string{"patch"}, sc.args...)...)
	return r.Stdout, r.Stderr, r.Code, guestTree(fsys, "/work")
}

func requireGNU(t *testing.T) {
	if _, err := os.Stat("/usr/bin/patch"); err != nil {
		t.Skip("no /usr/bin/patch")
	}
}

func check(t *testing.T, sc scenario) {
	t.Helper()
	wo, we, wc, wt := runGNU(t, sc)
	go_, ge, gc, gt := runOurs(sc)
	if wo != go_ || we != ge || wc != gc || wt != gt {
		t.Errorf("patch %q\nwant (%d):\n%s\nstderr: %s\ntree:\n%s\ngot (%d):\n%s\nstderr: %s\ntree:\n%s",
			sc.args, wc, wo, we, wt, gc, go_, ge, gt)
	}
}

func seq(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func TestScenariosAgainstGNU(t *testing.T) {
	requireGNU(t)
	uni := "--- f\t2024-01-02 03:04:05.000000000 +0000\n+++ g\t2024-01-02 03:04:06.000000000 +0000\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n@@ -22,7 +22,7 @@\n 22\n 23\n 24\n-25\n+XXV\n 26\n 27\n 28\n"
	shifted := "a\nb\nc\n" + seq(1, 30)
	patched := strings.Replace(strings.Replace(seq(1, 30), "\n5\n", "\nFIVE\n", 1), "\n25\n", "\nXXV\n", 1)
	fuzzed := strings.Replace(shifted, "\n7\n", "\nseven\n", 1)
	failing := strings.NewReplacer("\n6\n", "\nsix\n", "\n4\n", "\nfour\n", "\n23\n", "\ntwentythree\n").Replace(shifted)
	ctx := "*** f\t2024-01-02 03:04:05\n--- f\t2024-01-02 03:04:06\n***************\n*** 2,8 ****\n  2\n  3\n  4\n! 5\n  6\n  7\n  8\n--- 2,8 ----\n  2\n  3\n  4\n! FIVE\n  6\n  7\n  8\n"
	normal := "5c5\n< 5\n---\n> FIVE\n25d24\n< 25\n"
	git := "diff --git a/ex b/ex\nold mode 100755\nnew mode 100644\n" +
		"diff --git a/keep b/keep\nindex 4cb29ea..f04eb26 100644\n--- a/keep\n+++ b/keep\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n" +
		"diff --git a/mv1 b/mv2\nsimilarity index 100%\nrename from mv1\nrename to mv2\n" +
		"diff --git a/new b/new\nnew file mode 100644\nindex 0000000..d5a09df\n--- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+brand new\n" +
		"diff --git a/x b/x\nnew file mode 100755\nindex 0000000..d5a09df\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+#!/bin/sh\n" +
		"diff --git a/old b/old\ndeleted file mode 100644\nindex 286c5f5..0000000\n--- a/old\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n" +
		"diff --git a/mod b/mod\nindex 1111111..2222222 100644\n--- a/mod\n+++ b/mod\n@@ -1,2 +1,3 @@\n first\n-second\n+2nd\n+third\n"
	gitFiles := map[string]string{"keep": "one\ntwo\nthree\n", "old": "gone\n", "mv1": "mv me\nplease\n", "ex": "!xx\n", "mod": "first\nsecond\n"}
	dirDiff := "diff -ruN a/keep b/keep\n--- a/keep\t2024-01-01 00:00:00.000000000 +0000\n+++ b/keep\t2024-01-01 00:00:01.000000000 +0000\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n" +
		"diff -ruN a/new b/new\n--- a/new\t1970-01-01 00:00:00.000000000 +0000\n+++ b/new\t2024-01-01 00:00:01.000000000 +0000\n@@ -0,0 +1 @@\n+new file\n" +
		"diff -ruN a/sub/old b/sub/old\n--- a/sub/old\t2024-01-01 00:00:00.000000000 +0000\n+++ b/sub/old\t1970-01-01 00:00:00.000000000 +0000\n@@ -1 +0,0 @@\n-gone\n"
	dirFiles := map[string]string{"keep": "one\ntwo\n", "sub/old": "gone\n"}
	good := "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+X\n c\n"
	bad := "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-B\n+X\n c\n"
	abc := map[string]string{"f": "a\nb\nc\n"}
	noNL := "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+C\n"
	scenarios := []scenario{
		{name: "exact", files: map[string]string{"f": seq(1, 30)}, stdin: uni},
		{name: "offset", files: map[string]string{"f": shifted}, stdin: uni},
		{name: "fuzz", files: map[string]string{"f": fuzzed}, stdin: uni},
		{name: "fail", files: map[string]string{"f": failing}, stdin: uni},
		{name: "fail context reject", files: map[string]string{"f": failing}, args: []string{"--reject-format=context"}, stdin: uni},
		{name: "fuzz 0", files: map[string]string{"f": fuzzed}, args: []string{"-F", "0"}, stdin: uni},
		{name: "fuzz 3", files: map[string]string{"f": failing}, args: []string{"--fuzz=3"}, stdin: uni},
		{name: "reversed", files: map[string]string{"f": patched}, stdin: uni},
		{name: "reversed forward", files: map[string]string{"f": patched}, args: []string{"-N"}, stdin: uni},
		{name: "reversed batch", files: map[string]string{"f": patched}, args: []string{"-t"}, stdin: uni},
		{name: "reversed force", files: map[string]string{"f": patched}, args: []string{"-f"}, stdin: uni},
		{name: "reverse", files: map[string]string{"f": patched}, args: []string{"-R"}, stdin: uni},
		{name: "reverse unreversed", files: map[string]string{"f": seq(1, 30)}, args: []string{"-R"}, stdin: uni},
		{name: "dry run", files: map[string]string{"f": shifted}, args: []string{"--dry-run"}, stdin: uni},
		{name: "dry run fail", files: map[string]string{"f": failing}, args: []string{"--dry-run"}, stdin: uni},
		{name: "quiet", files: map[string]string{"f": failing}, args: []string{"-s"}, stdin: uni},
		{name: "verbose", files: map[string]string{"f": shifted}, args: []string{"--verbose"}, stdin: uni},
		{name: "backup", files: map[string]string{"f": seq(1, 30)}, args: []string{"-b"}, stdin: uni},
		{name: "backup suffix", files: map[string]string{"f": seq(1, 30)}, args: []string{"-b", "-z", ".bak"}, stdin: uni},
		{name: "backup prefix", files: map[string]string{"f": seq(1, 30), "old/": ""}, args: []string{"-b", "-B", "old/"}, stdin: uni},
		{name: "backup numbered", files: map[string]string{"f": seq(1, 30), "f.~1~": "x\n"}, args: []string{"-b", "-V", "numbered"}, stdin: uni},
		{name: "no backup if mismatch", files: map[string]string{"f": shifted}, args: []string{"--no-backup-if-mismatch"}, stdin: uni},
		{name: "context diff", files: map[string]string{"f": shifted}, stdin: ctx},
		{name: "context diff fail", files: map[string]string{"f": failing}, stdin: ctx},
		{name: "normal diff", files: map[string]string{"f": seq(1, 30)}, args: []string{"f"}, stdin: normal},
		{name: "normal diff fail", files: map[string]string{"f": failing}, args: []string{"f"}, stdin: normal},
		{name: "git diff", files: gitFiles, args: []string{"-p1"}, stdin: git},
		{name: "git diff twice", files: map[string]string{"keep": "one\n2\nthree\n", "new": "brand new\n", "mv2": "mv me\nplease\n", "ex": "x\n", "mod": "first\n2nd\nthird\n", "x": "!x#!/bin/sh\n"}, args: []string{"-p1"}, stdin: git},
		{name: "git diff reverse", files: map[string]string{"keep": "one\n2\nthree\n", "new": "brand new\n", "mv2": "mv me\nplease\n", "ex": "x\n", "mod": "first\n2nd\nthird\n", "x": "!x#!/bin/sh\n"}, args: []string{"-p1", "-R"}, stdin: git},
		{name: "git diff dry", files: gitFiles, args: []string{"-p1", "--dry-run"}, stdin: git},
		{name: "dir diff p1", files: dirFiles, args: []string{"-p1"}, stdin: dirDiff},
		{name: "dir diff p0", files: dirFiles, args: []string{"-p0"}, stdin: dirDiff},
		{name: "dir diff default", files: dirFiles, stdin: dirDiff},
		{name: "dir diff again", files: map[string]string{"keep": "one\nTWO\n", "new": "new file\n"}, args: []string{"-p1"}, stdin: dirDiff},
		{name: "positional", files: map[string]string{"f": "a\nb\nc\n", "p.diff": good}, args: []string{"f", "p.diff"}},
		{name: "input", files: map[string]string{"f": "a\nb\nc\n", "p.diff": good}, args: []string{"-i", "p.diff"}},
		{name: "input missing", files: abc, args: []string{"-i", "nosuch"}},
		{name: "output", files: abc, args: []string{"-o", "out"}, stdin: good},
		{name: "output dash", files: abc, args: []string{"-o", "-"}, stdin: good},
		{name: "directory", files: map[string]string{"sub/f": "a\nb\nc\n"}, args: []string{"-d", "sub"}, stdin: good},
		{name: "directory missing", files: abc, args: []string{"-d", "nosuch"}, stdin: good},
		{name: "reject file", files: abc, args: []string{"-r", "my.rej"}, stdin: bad},
		{name: "reject dash", files: abc, args: []string{"-r", "-"}, stdin: bad},
		{name: "remove empty", files: map[string]string{"f": "a\nb\nc\n"}, args: []string{"-E"}, stdin: "--- f\n+++ f\n@@ -1,3 +0,0 @@\n-a\n-b\n-c\n"},
		{name: "empty out", files: map[string]string{"f": "a\nb\nc\n"}, stdin: "--- f\n+++ f\n@@ -1,3 +0,0 @@\n-a\n-b\n-c\n"},
		{name: "no newline", files: abc, stdin: noNL},
		{name: "no newline input", files: map[string]string{"f": "a\nb\nc"}, stdin: "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+C\n"},
		{name: "no newline both", files: map[string]string{"f": "a\nb\nc"}, stdin: "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n\\ No newline at end of file\n"},
		{name: "garbage", files: abc, stdin: "hello world\n"},
		{name: "empty patch", files: abc, stdin: ""},
		{name: "malformed", files: abc, stdin: "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n?b\n+X\n c\n"},
		{name: "truncated", files: abc, stdin: "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+X\n"},
		{name: "ends mid line", files: abc, stdin: "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+X\n c"},
		{name: "missing file", files: abc, stdin: "--- nosuch\n+++ nosuch\n@@ -1,3 +1,3 @@\n a\n-b\n+X\n c\n"},
		{name: "missing file force", files: abc, args: []string{"-f"}, stdin: "--- nosuch\n+++ nosuch\n@@ -1,3 +1,3 @@\n a\n-b\n+X\n c\n"},
		{name: "not regular", files: map[string]string{"d/": ""}, stdin: "--- d\n+++ d\n@@ -1,3 +1,3 @@\n a\n-b\n+X\n c\n"},
		{name: "create", files: map[string]string{}, stdin: "--- /dev/null\n+++ y\n@@ -0,0 +1,2 @@\n+hi\n+there\n"},
		{name: "create in dir", files: map[string]string{}, stdin: "--- /dev/null\n+++ a/b/y\n@@ -0,0 +1 @@\n+hi\n"},
		{name: "create existing", files: map[string]string{"y": "hi\n"}, stdin: "--- /dev/null\n+++ y\n@@ -0,0 +1 @@\n+hi\n"},
		{name: "create backup", files: map[string]string{}, args: []string{"-b"}, stdin: "--- /dev/null\n+++ y\n@@ -0,0 +1 @@\n+hi\n"},
		{name: "delete", files: map[string]string{"d/y": "hi\n"}, stdin: "--- d/y\n+++ /dev/null\n@@ -1 +0,0 @@\n-hi\n"},
		{name: "delete mismatch", files: map[string]string{"y": "hi\nthere\n"}, stdin: "--- y\n+++ /dev/null\n@@ -1 +0,0 @@\n-hi\n"},
		{name: "delete missing", files: map[string]string{}, stdin: "--- y\n+++ /dev/null\n@@ -1 +0,0 @@\n-hi\n"},
		{name: "two files", files: map[string]string{"f": "a\nb\nc\n", "g": "x\ny\n"}, stdin: good + "--- g\n+++ g\n@@ -1,2 +1,2 @@\n-x\n+X\n y\n"},
		{name: "same file twice", files: map[string]string{"f": "a\nb\nc\n"}, stdin: good + "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-X\n+Y\n c\n"},
		{name: "same file twice reject", files: map[string]string{"f": "a\nb\nc\n"}, stdin: bad + bad},
		{name: "index line", files: abc, stdin: "Index: f\n===================================================================\n" + good},
		{name: "leading garbage", files: abc, stdin: "Some text\nmore text\n" + good},
		{name: "bad option", files: abc, args: []string{"--frob"}},
		{name: "bad short option", files: abc, args: []string{"-Q"}},
		{name: "bad strip", files: abc, args: []string{"-p", "x"}, stdin: good},
		{name: "negative fuzz", files: abc, args: []string{"-F", "-1"}, stdin: good},
		{name: "extra operand", files: abc, args: []string{"a", "b", "c"}},
		{name: "strip too many", files: abc, args: []string{"-p3"}, stdin: good},
		{name: "ignore whitespace", files: map[string]string{"f": "a\nb  x\nc\n"}, args: []string{"-l"}, stdin: "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b x\n+X\n c\n"},
		{name: "ifdef", files: map[string]string{"f": seq(1, 30)}, args: []string{"-D", "NEW"}, stdin: uni},
		{name: "ed script", files: map[string]string{"f": "a\nb\nc\nd\n", "e.diff": "4a\ne\n..\n.\ns/.//\n2c\nB\n.\n"}, args: []string{"f", "e.diff"}},
		{name: "ed script no file", files: map[string]string{"f": "a\nb\nc\nd\n"}, stdin: "4a\ne\n.\n"},
		{name: "crlf patch", files: abc, stdin: "--- f\r\n+++ f\r\n@@ -1,3 +1,3 @@\r\n a\r\n-b\r\n+X\r\n c\r\n"},
		{name: "quoted name", files: map[string]string{"a b": "a\nb\nc\n"}, stdin: "--- \"a b\"\n+++ \"a b\"\n@@ -1,3 +1,3 @@\n a\n-b\n+X\n c\n"},
		{name: "name with tab date", files: map[string]string{"a b": "a\nb\nc\n"}, stdin: "--- a b\t2024-01-01 00:00:00\n+++ a b\t2024-01-01 00:00:00\n@@ -1,3 +1,3 @@\n a\n-b\n+X\n c\n"},
		{name: "dangerous name", files: abc, stdin: "--- ../f\n+++ ../f\n@@ -1,3 +1,3 @@\n a\n-b\n+X\n c\n"},
		{name: "unified no context", files: map[string]string{"f": seq(1, 5)}, stdin: "--- f\n+++ f\n@@ -3 +3 @@\n-3\n+three\n"},
		{name: "unified add at end", files: map[string]string{"f": seq(1, 5)}, stdin: "--- f\n+++ f\n@@ -5,0 +6 @@\n+6\n"},
		{name: "unified add at start", files: map[string]string{"f": seq(1, 5)}, stdin: "--- f\n+++ f\n@@ -0,0 +1 @@\n+0\n"},
		{name: "c function", files: map[string]string{"f": failing}, stdin: strings.Replace(uni, "@@ -22,7 +22,7 @@", "@@ -22,7 +22,7 @@ int main()", 1)},
		{name: "help", files: abc, args: []string{"--help"}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) { check(t, sc) })
	}
}

func randomLines(r *rand.Rand, n int, alphabet []string) []string {
	k := r.Intn(n + 1)
	out := make([]string, k)
	for i := range out {
		out[i] = alphabet[r.Intn(len(alphabet))] + "\n"
	}
	return out
}

func mutateLines(r *rand.Rand, lines []string, alphabet []string, edits int) []string {
	lines = append([]string(nil), lines...)
	for e := 0; e < edits; e++ {
		pos := r.Intn(len(lines) + 1)
		switch r.Intn(3) {
		case 0:
			lines = append(lines[:pos], append([]string{alphabet[r.Intn(len(alphabet))] + "\n"}, lines[pos:]...)...)
		case 1:
			if pos < len(lines) {
				lines = append(lines[:pos], lines[pos+1:]...)
			}
		case 2:
			if pos < len(lines) {
				lines[pos] = alphabet[r.Intn(len(alphabet))] + "\n"
			}
		}
	}
	return lines
}

func joinMaybeNoEOL(r *rand.Rand, lines []string) string {
	s := strings.Join(lines, "")
	if len(s) > 0 && r.Intn(10) == 0 {
		s = s[:len(s)-1]
	}
	return s
}

// gnuDiffText makes a patch with the machine's diff.
func gnuDiffText(t *testing.T, a, b string, args ...string) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b"), []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/diff", append(args, "a", "b")...)
	cmd.Dir = dir
	out, _ := cmd.Output()
	return string(out)
}

func TestRandomAgainstGNU(t *testing.T) { testRandom(t, 11) }

// TestRandomSeeds runs more seeds when PATCH_SEEDS is set.
func TestRandomSeeds(t *testing.T) {
	if os.Getenv("PATCH_SEEDS") == "" {
		t.Skip("set PATCH_SEEDS to run")
	}
	for s := 1; s <= 30; s++ {
		testRandom(t, int64(s))
	}
}

func testRandom(t *testing.T, seed int64) {
	requireGNU(t)
	if _, err := os.Stat("/usr/bin/diff"); err != nil {
		t.Skip("no /usr/bin/diff")
	}
	r := rand.New(rand.NewSource(seed))
	alphabets := [][]string{
		{"a", "b", "c", "d"},
		{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", ""},
	}
	iters := 300
	if testing.Short() {
		iters = 80
	}
	failures := 0
	for it := 0; it < iters && failures < 3; it++ {
		alpha := alphabets[r.Intn(len(alphabets))]
		a := randomLines(r, 40, alpha)
		b := mutateLines(r, a, alpha, 1+r.Intn(6))
		aText, bText := joinMaybeNoEOL(r, a), joinMaybeNoEOL(r, b)
		var format []string
		switch r.Intn(5) {
		case 0:
			format = []string{"-c", "--label", "f", "--label", "f"}
		case 1:
			format = []string{}
		case 2:
			format = []string{"-U1", "--label", "f", "--label", "f"}
		default:
			format = []string{"-u", "--label", "f", "--label", "f"}
		}
		diffText := gnuDiffText(t, aText, bText, format...)
		if diffText == "" {
			continue
		}
		var target string
		switch r.Intn(4) {
		case 0:
			target = aText
		case 1:
			target = bText // already applied
		default:
			target = joinMaybeNoEOL(r, mutateLines(r, a, alpha, 1+r.Intn(3)))
		}
		args := [][]string{{}, {"-N"}, {"-R"}, {"-F3"}, {"-f"}, {"-t"}, {"--dry-run"}, {"-b"}}[r.Intn(8)]
		if len(format) == 0 {
			args = append(append([]string{}, args...), "f")
		}
		sc := scenario{files: map[string]string{"f": target}, args: args, stdin: diffText}
		wo, we, wc, wt := runGNU(t, sc)
		go_, ge, gc, gt := runOurs(sc)
		if wo != go_ || we != ge || wc != gc || wt != gt {
			failures++
			t.Errorf("patch %q\ntarget=%q\npatch:\n%s\nwant (%d):\n%s\nstderr: %s\ntree:\n%s\ngot (%d):\n%s\nstderr: %s\ntree:\n%s",
				args, target, diffText, wc, wo, we, wt, gc, go_, ge, gt)
		}
	}
}

func TestSetTimeAgainstGNU(t *testing.T) {
	requireGNU(t)
	p := "--- f\t2024-01-02 03:04:05.000000000 +0000\n+++ f\t2024-02-03 04:05:06.000000000 +0000\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
	for _, args := range [][]string{{"-Z"}, {"-T"}, {"-Z", "-f"}} {
		check(t, scenario{files: map[string]string{"f": "a\nb\nc\n"}, args: args, stdin: p})
		check(t, scenario{files: map[string]string{"f": "x\na\nb\nc\n"}, args: args, stdin: p})
	}
}

func TestMoreScenariosAgainstGNU(t *testing.T) {
	requireGNU(t)
	good := "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
	bad := "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-x\n+B\n c\n"
	ctx := "*** f\n--- f\n***************\n*** 1,3 ****\n  a\n! x\n  c\n--- 1,3 ----\n  a\n! B\n  c\n"
	abc := map[string]string{"f": "a\nb\nc\n"}
	for _, sc := range []scenario{
		{name: "verbose fail", files: abc, args: []string{"--verbose"}, stdin: bad},
		{name: "verbose create", files: map[string]string{}, args: []string{"--verbose"}, stdin: "--- /dev/null\n+++ y\n@@ -0,0 +1 @@\n+hi\n"},
		{name: "verbose delete", files: map[string]string{"d/y": "hi\n"}, args: []string{"--verbose", "-p0"}, stdin: "--- d/y\n+++ /dev/null\n@@ -1 +0,0 @@\n-hi\n"},
		{name: "verbose garbage", files: abc, args: []string{"--verbose"}, stdin: "junk\n" + good + "trailing junk\n"},
		{name: "prereq found", files: map[string]string{"f": "a\nv1.2\nc\n"}, stdin: "Prereq: v1.2\n--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-v1.2\n+v1.3\n c\n"},
		{name: "prereq missing batch", files: abc, args: []string{"-t"}, stdin: "Prereq: v9\n" + good},
		{name: "prereq missing force", files: abc, args: []string{"-f"}, stdin: "Prereq: v9\n" + good},
		{name: "context reject as unified", files: abc, args: []string{"--reject-format=unified"}, stdin: ctx},
		{name: "context reverse", files: map[string]string{"f": "a\nB\nc\n"}, args: []string{"-R"}, stdin: strings.Replace(ctx, "! x", "! b", 1)},
		{name: "posix", files: abc, args: []string{"--posix"}, stdin: good},
		{name: "output with failure", files: abc, args: []string{"-o", "out"}, stdin: bad},
		{name: "two outputs", files: map[string]string{"f": "a\nb\nc\n", "g": "a\nb\nc\n"}, args: []string{"-o", "out"}, stdin: good + strings.ReplaceAll(good, "f", "g")},
		{name: "normal diff reverse", files: map[string]string{"f": "a\nB\nc\n"}, args: []string{"-R", "f"}, stdin: "2c2\n< b\n---\n> B\n"},
		{name: "indented patch", files: abc, stdin: "  --- f\n  +++ f\n  @@ -1,3 +1,3 @@\n   a\n  -b\n  +B\n   c\n"},
		{name: "unified rejects numbered", files: map[string]string{"f": "a\nb\nc\n", "f.rej": "old\n"}, stdin: bad},
		{name: "strip 1 of deep", files: map[string]string{"x/y/f": "a\nb\nc\n"}, args: []string{"-p1"}, stdin: "--- a/x/y/f\n+++ b/x/y/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{name: "index only name", files: abc, stdin: "Index: f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{name: "missing header", files: abc, args: []string{"f"}, stdin: "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
	} {
		t.Run(sc.name, func(t *testing.T) { check(t, sc) })
	}
}

func TestGitExtrasAgainstGNU(t *testing.T) {
	requireGNU(t)
	for _, sc := range []scenario{
		{name: "binary differ line", files: map[string]string{"bin": "a\x00b"}, args: []string{"-p1"},
			stdin: "diff --git a/bin b/bin\nindex 1111111..2222222 100644\nBinary files a/bin and b/bin differ\n"},
		{name: "git binary patch", files: map[string]string{"bin": "a\x00b"}, args: []string{"-p1"},
			stdin: "diff --git a/bin b/bin\nindex 1111111..2222222 100644\nGIT binary patch\nliteral 3\nKcmZ>`WME+c01E&B\n\nliteral 3\nKcmZ>`WME+c01E&B\n\n"},
		{name: "copy", files: map[string]string{"src": "one\ntwo\n"}, args: []string{"-p1"},
			stdin: "diff --git a/src b/dst\nsimilarity index 50%\ncopy from src\ncopy to dst\nindex 1111111..2222222 100644\n--- a/src\n+++ b/dst\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"},
		{name: "rename with change", files: map[string]string{"src": "one\ntwo\n"}, args: []string{"-p1"},
			stdin: "diff --git a/src b/dst\nsimilarity index 50%\nrename from src\nrename to dst\nindex 1111111..2222222 100644\n--- a/src\n+++ b/dst\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"},
		{name: "empty new file", files: map[string]string{}, args: []string{"-p1"},
			stdin: "diff --git a/e b/e\nnew file mode 100644\nindex 0000000..e69de29\n"},
		{name: "empty deleted file", files: map[string]string{"e": ""}, args: []string{"-p1"},
			stdin: "diff --git a/e b/e\ndeleted file mode 100644\nindex e69de29..0000000\n"},
		{name: "symlink create", files: map[string]string{}, args: []string{"-p1"},
			stdin: "diff --git a/l b/l\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+target\n\\ No newline at end of file\n"},
		{name: "mode only", files: map[string]string{"x": "hi\n"}, args: []string{"-p1"},
			stdin: "diff --git a/x b/x\nold mode 100644\nnew mode 100755\n"},
		{name: "two git series", files: map[string]string{"f": "a\nb\nc\n"}, args: []string{"-p1"},
			stdin: "diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n" +
				"diff --git a/f b/f\nindex 2..3 100644\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-B\n+C\n c\n"},
	} {
		t.Run(sc.name, func(t *testing.T) { check(t, sc) })
	}
}
