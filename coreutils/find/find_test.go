package find

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// mkfs builds a memory filesystem with entries created in order:
// "dir/" makes a directory, "name->target" a symlink, "name=text" a file
// with that content, "name" an empty file. Relative names are under
// /work.
func mkfs(t testing.TB, entries ...string) builtins.FS {
	e := cmdtest.Env{Files: map[string]string{}}
	fsys := e.NewFS()
	for _, ent := range entries {
		abs := func(p string) string {
			if strings.HasPrefix(p, "/") {
				return p
			}
			return "/work/" + p
		}
		switch {
		case strings.HasSuffix(ent, "/"):
			if err := fsys.MkdirAll(abs(ent), 0o755); err != nil {
				t.Fatal(err)
			}
		case strings.Contains(ent, "->"):
			name, target, _ := strings.Cut(ent, "->")
			if err := fsys.SymlinkIfPossible(target, abs(name)); err != nil {
				t.Fatal(err)
			}
		default:
			name, content, _ := strings.Cut(ent, "=")
			f, err := fsys.Create(abs(name))
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte(content))
			f.Close()
			fsys.Chmod(abs(name), 0o644)
		}
	}
	return fsys
}

// testExec runs echo and a few helpers for -exec.
func testExec(ctx context.Context, c *builtins.Call) int {
	switch c.Args[0] {
	case "echo":
		fmt.Fprintln(c.Stdout, strings.Join(c.Args[1:], " "))
		return 0
	case "pwd":
		fmt.Fprintln(c.Stdout, c.Dir)
		return 0
	case "fail":
		return 3
	case "true":
		return 0
	}
	return 127
}

func runFind(fsys builtins.FS, stdin string, args ...string) cmdtest.Result {
	e := cmdtest.Env{Exec: testExec, Stdin: stdin}
	return e.RunIn(fsys, Run, append([]string{"find"}, args...)...)
}

var tree = []string{
	"d/", "d/f=hello", "d/l->f", "d/dang->nosuch", "d/e/", "d/e/x", "d/e/g/", "z", "big=" + strings.Repeat("x", 2000),
}

func TestFind(t *testing.T) {
	tests := []struct {
		args   []string
		out    string
		errOut string
		code   int
	}{
		{nil, ".\n./d\n./d/f\n./d/l\n./d/dang\n./d/e\n./d/e/x\n./d/e/g\n./z\n./big\n", "", 0},
		{[]string{"d"}, "d\nd/f\nd/l\nd/dang\nd/e\nd/e/x\nd/e/g\n", "", 0},
		{[]string{"d/", "-maxdepth", "1"}, "d/\nd/f\nd/l\nd/dang\nd/e\n", "", 0},
		{[]string{"d//", "-name", "f"}, "d//f\n", "", 0},
		{[]string{"-name", "f"}, "./d/f\n", "", 0},
		{[]string{"d", "-type", "l"}, "d/l\nd/dang\n", "", 0},
		{[]string{"d", "-type", "f,d"}, "d\nd/f\nd/e\nd/e/x\nd/e/g\n", "", 0},
		{[]string{"d", "-xtype", "l"}, "d/dang\n", "", 0},
		{[]string{"d", "-xtype", "f"}, "d/f\nd/l\nd/e/x\n", "", 0},
		{[]string{"-L", "d", "-type", "l"}, "d/dang\n", "", 0},
		{[]string{"d", "-name", "e", "-prune", "-o", "-print"}, "d\nd/f\nd/l\nd/dang\n", "", 0},
		{[]string{"d", "-depth"}, "d/f\nd/l\nd/dang\nd/e/x\nd/e/g\nd/e\nd\n", "", 0},
		{[]string{"d", "-mindepth", "2"}, "d/e/x\nd/e/g\n", "", 0},
		{[]string{"d", "-maxdepth", "0"}, "d\n", "", 0},
		{[]string{"-maxdepth", "1", "-empty"}, "./z\n", "", 0},
		{[]string{"d", "-empty"}, "d/e/x\nd/e/g\n", "", 0},
		{[]string{".", "-maxdepth", "1", "-size", "+1"}, ".\n./d\n./big\n", "", 0},
		{[]string{".", "-maxdepth", "1", "-size", "-1", "-type", "f"}, "./z\n", "", 0},
		{[]string{"big", "-size", "4"}, "big\n", "", 0},
		{[]string{"big", "-size", "2000c"}, "big\n", "", 0},
		{[]string{"big", "-size", "2k"}, "big\n", "", 0},
		{[]string{"d", "-print", "-quit"}, "d\n", "", 0},
		{[]string{"d", "-name", "x", "-print", "-quit"}, "d/e/x\n", "", 0},
		{[]string{"d", "-path", "*e/*"}, "d/e/x\nd/e/g\n", "", 0},
		{[]string{"d", "-iname", "F"}, "d/f\n", "", 0},
		{[]string{"d", "-lname", "no*"}, "d/dang\n", "", 0},
		{[]string{"d", "-regex", `d/\(f\|l\)`}, "d/f\nd/l\n", "", 0},
		{[]string{"d", "-regextype", "posix-extended", "-regex", "d/(f|l)"}, "d/f\nd/l\n", "", 0},
		{[]string{"d", "-not", "-name", "*a*", "-type", "l"}, "d/l\n", "", 0},
		{[]string{"d", "-name", "f", "-o", "-name", "x"}, "d/f\nd/e/x\n", "", 0},
		{[]string{"d", "-name", "f", ",", "-name", "x"}, "d/e/x\n", "", 0},
		{[]string{"d", "(", "-name", "f", "-o", "-name", "x", ")", "-printf", "%f\n"}, "f\nx\n", "", 0},
		{[]string{"d/f", "-printf", "%p|%P|%f|%h|%H|%s|%d|%m|%M|%y|%Y|%k|%b|%n|%u|%g|%U\n"},
			"d/f||f|d|d/f|5|0|644|-rw-r--r--|f|f|4|8|1|user|user|1000\n", "", 0},
		{[]string{"d", "-mindepth", "1", "-maxdepth", "1", "-printf", "%P %y %Y %l\n"},
			"f f f \nl l f f\ndang l N nosuch\ne d d \n", "", 0},
		{[]string{"d/", "-maxdepth", "0", "-printf", "%p|%f|%h\n"}, "d/|d/|d\n", "", 0},
		{[]string{"d/f", "-printf", "[%5s][%-5s][%.1f][%+d][%#m][%05m]\n"}, "[    5][5    ][f][+0][0644][00644]\n", "", 0},
		{[]string{"d/f", "-printf", `a\tb\101\\\n`}, "a\tbA\\\n", "", 0},
		{[]string{"d/f", "-printf", `x\cy`}, "x", "", 0},
		{[]string{"d/f", "-printf", "%Q\n"}, "%Q\n", "find: warning: unrecognized format directive `%Q'\n", 0},
		{[]string{"d/f", "-printf", `\q`}, `\q`, "find: warning: unrecognized escape `\\q'\n", 0},
		{[]string{"d/f", "-printf", "%"}, "", "find: error: % at end of format string\n", 1},
		{[]string{"d", "-print0", "-maxdepth", "0"}, "d\x00", "", 0},
		{[]string{"d", "-maxdepth", "1", "-perm", "644"}, "d/f\n", "", 0},
		{[]string{"d", "-maxdepth", "1", "-perm", "-u=rwx"}, "d\nd/l\nd/dang\nd/e\n", "", 0},
		{[]string{"d", "-maxdepth", "1", "-perm", "/o+x", "-type", "d"}, "d\nd/e\n", "", 0},
		{[]string{"d", "-perm", "999"}, "", "find: invalid mode ‘999’\n", 1},
		{[]string{"d", "-samefile", "d/l"}, "d/l\n", "", 0},
		{[]string{"d", "-L", "-samefile", "d/f"}, "", "find: unknown predicate `-L'\n", 1},
		{[]string{"-L", "d", "-samefile", "d/f"}, "d/f\nd/l\n", "", 0},
		{[]string{"d", "-user", "user", "-name", "f"}, "d/f\n", "", 0},
		{[]string{"d", "-uid", "1000", "-name", "f"}, "d/f\n", "", 0},
		{[]string{"d", "-nouser"}, "", "", 0},
		{[]string{"d", "-user", "nosuch"}, "", "find: ‘nosuch’ is not the name of a known user\n", 1},
		{[]string{"d", "-newer", "nosuch"}, "", "find: ‘nosuch’: No such file or directory\n", 1},
		{[]string{"nosuch", "d", "-maxdepth", "0"}, "d\n", "find: ‘nosuch’: No such file or directory\n", 1},
		{[]string{"d/f/"}, "", "find: ‘d/f/’: Not a directory\n", 1},
		{[]string{"d", "-foo"}, "", "find: unknown predicate `-foo'\n", 1},
		{[]string{"d", "-name", "a", "x"}, "", "find: paths must precede expression: `x'\n", 1},
		{[]string{"d", "-name", "a", "z"}, "", "find: paths must precede expression: `z'\nfind: possible unquoted pattern after predicate `-name'?\n", 1},
		{[]string{"d", "-name"}, "", "find: missing argument to `-name'\n", 1},
		{[]string{"d", "-type", "q"}, "", "find: Unknown argument to -type: q\n", 1},
		{[]string{"d", "-mtime", "x"}, "", "find: invalid argument `x' to `-mtime'\n", 1},
		{[]string{"d", "-maxdepth", "-1"}, "", "find: Expected a positive decimal integer argument to -maxdepth, but got ‘-1’\n", 1},
		{[]string{"d", "("}, "", "find: invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('\n", 1},
		{[]string{"d", "(", "-name", "a"}, "", "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.\n", 1},
		{[]string{"d", "-name", "a", ")"}, "", "find: you have too many ')'\n", 1},
		{[]string{"d", "(", ")"}, "", "find: invalid expression; empty parentheses are not allowed.\n", 1},
		{[]string{"d", "-o", "-print"}, "", "find: invalid expression; you have used a binary operator '-o' with nothing before it.\n", 1},
		{[]string{"d", "-name", "a", "-o"}, "", "find: expected an expression after '-o'\n", 1},
		{[]string{"d", "!"}, "", "find: expected an expression after '!'\n", 1},
		{[]string{"d", "-regex", "\\("}, "", "find: failed to compile regular expression '\\(': Unmatched ( or \\(\n", 1},
		{[]string{"d", "-warn", "-name", "f", "-maxdepth", "1"}, "d/f\n",
			"find: warning: you have specified the global option -maxdepth after the argument -name, but global options are not positional, i.e., -maxdepth affects tests specified before it as well as those specified after it.  Please specify global options before other arguments.\n", 0},
		{[]string{"d", "-name", "f", "-maxdepth", "1"}, "d/f\n", "", 0},
		{[]string{"d", "-maxdepth", "0", "-o", "-print"}, "", "", 0},
		{[]string{"d", "-daystart", "-o", "-print"}, "", "find: invalid expression; you have used a binary operator '-o' with nothing before it.\n", 1},
		{[]string{"d", "-exec", "echo", "<{}>", ";"}, "<d>\n<d/f>\n<d/l>\n<d/dang>\n<d/e>\n<d/e/x>\n<d/e/g>\n", "", 0},
		{[]string{"d", "-exec", "echo", "{}", "+"}, "d d/f d/l d/dang d/e d/e/x d/e/g\n", "", 0},
		{[]string{"d", "-type", "f", "-execdir", "echo", "{}", "+"}, "./f\n./x\n", "", 0},
		{[]string{"d", "-type", "f", "-execdir", "pwd", ";"}, "/work/d\n/work/d/e\n", "", 0},
		{[]string{"d", "-maxdepth", "0", "-execdir", "echo", "{}", ";"}, "./d\n", "", 0},
		{[]string{"d", "-name", "f", "-exec", "fail", ";", "-print"}, "", "", 0},
		{[]string{"d", "-name", "f", "-exec", "fail", "{}", "+"}, "", "", 1},
		{[]string{"d", "-name", "f", "-exec", "nosuch", "{}", ";"}, "", "find: ‘nosuch’: No such file or directory\n", 0},
		{[]string{"d", "-exec", "echo", "{}", "x", "+"}, "", "find: missing argument to `-exec'\n", 1},
		{[]string{"d", "-exec", "echo", "{}", "{}", "+"}, "", "find: Only one instance of {} is supported with -exec ... +\n", 1},
		{[]string{"d", "-exec", "echo", "x{}", "{}", "+"}, "", "find: Only one instance of {} is supported with -exec ... +\n", 1},
		{[]string{"d", "-exec", "echo", "x{}", "+"}, "", "find: In ‘-exec ... {} +’ the ‘{}’ must appear by itself, but you specified ‘x{}’\n", 1},
		{[]string{"d", "-exec", ";"}, "", "find: invalid argument `;' to `-exec'\n", 1},
		{[]string{"d", "-name", "e", "-prune", "-delete"}, "", "find: The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.\n", 1},
		{[]string{"d", "-name", "e", "-delete"}, "", "find: cannot delete ‘d/e’: Directory not empty\n", 1},
		{[]string{"--version"}, "find (bashbox) 0.1.0\n", "", 0},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := runFind(mkfs(t, tree...), "", tc.args...)
			if r.Stdout != tc.out || r.Stderr != tc.errOut || r.Code != tc.code {
				t.Errorf("find %q:\ngot  out=%q err=%q code=%d\nwant out=%q err=%q code=%d",
					tc.args, r.Stdout, r.Stderr, r.Code, tc.out, tc.errOut, tc.code)
			}
		})
	}
}

func TestDelete(t *testing.T) {
	fsys := mkfs(t, tree...)
	r := runFind(fsys, "", "d", "-delete")
	if r.Code != 0 || r.Stdout != "" || r.Stderr != "" {
		t.Fatalf("got %+v", r)
	}
	if _, err := fsys.Stat("/work/d"); err == nil {
		t.Errorf("d still exists")
	}
	r = runFind(fsys, "", ".", "-name", "z", "-delete", "-print")
	if r.Stdout != "./z\n" {
		t.Errorf("got %q", r.Stdout)
	}
	r = runFind(fsys, "", ".", "-delete")
	if r.Code != 0 {
		t.Errorf("deleting . : %+v", r)
	}
	if list, _ := fsys.ReadDir("/work"); len(list) != 0 {
		t.Errorf("left %d entries", len(list))
	}
}

func TestOk(t *testing.T) {
	r := runFind(mkfs(t, tree...), "y\nno\nyes\n", "d", "-maxdepth", "1", "-type", "f", "-o", "-type", "d", "-ok", "echo", "{}", ";")
	want := "d\n"
	if r.Stdout != want {
		t.Errorf("stdout %q, want %q", r.Stdout, want)
	}
	if !strings.Contains(r.Stderr, "< echo ... d > ? ") || !strings.Contains(r.Stderr, "< echo ... d/e > ? ") {
		t.Errorf("stderr %q", r.Stderr)
	}
}

func TestSymlinkLoops(t *testing.T) {
	fsys := mkfs(t, "a/", "a/b/", "a/b/up->..", "a/self->../a", "loop1->loop2", "loop2->loop1", "abs->/work/a", "dang->nosuch")
	r := runFind(fsys, "", ".")
	if r.Code != 0 || strings.Count(r.Stdout, "\n") != 9 {
		t.Errorf("-P: %+v", r)
	}
	r = runFind(fsys, "", "-L", ".")
	wantOut := ".\n./a\n./a/b\n./abs\n./abs/b\n./dang\n"
	if r.Stdout != wantOut || r.Code != 1 {
		t.Errorf("-L out %q code %d, want %q", r.Stdout, r.Code, wantOut)
	}
	for _, msg := range []string{
		"find: File system loop detected; ‘./a/b/up’ is part of the same file system loop as ‘./a’.\n",
		"find: File system loop detected; ‘./a/self’ is part of the same file system loop as ‘./a’.\n",
		"find: ‘./loop1’: Too many levels of symbolic links\n",
		"find: File system loop detected; ‘./abs/b/up’ is part of the same file system loop as ‘./abs’.\n",
	} {
		if !strings.Contains(r.Stderr, msg) {
			t.Errorf("-L stderr %q lacks %q", r.Stderr, msg)
		}
	}
	r = runFind(fsys, "", ".", "-printf", "%p %Y\n")
	if !strings.Contains(r.Stdout, "./loop1 L\n") || !strings.Contains(r.Stdout, "./dang N\n") || !strings.Contains(r.Stdout, "./abs d\n") {
		t.Errorf("%%Y: %q", r.Stdout)
	}
}

func TestTimes(t *testing.T) {
	fsys := mkfs(t, "new", "old", "older")
	now := time.Now()
	fsys.Chtimes("/work/old", now, now.Add(-36*time.Hour))
	fsys.Chtimes("/work/older", now, now.Add(-80*time.Hour))
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{[]string{"-mtime", "0"}, "./new\n"},
		{[]string{"-mtime", "1"}, "./old\n"},
		{[]string{"-mtime", "+1"}, "./older\n"},
		{[]string{"-mtime", "-2"}, "./new\n./old\n"},
		{[]string{"-mmin", "-10"}, "./new\n"},
		{[]string{"-mmin", "+60"}, "./old\n./older\n"},
		{[]string{"-newer", "old"}, "./new\n"},
		{[]string{"-newermt", "@0"}, "./new\n./old\n./older\n"},
	} {
		r := runFind(fsys, "", append([]string{".", "-type", "f"}, tc.args...)...)
		if r.Stdout != tc.out {
			t.Errorf("find %q = %q, want %q", tc.args, r.Stdout, tc.out)
		}
	}
}

func TestExecBatches(t *testing.T) {
	var entries []string
	entries = append(entries, "many/")
	for i := 0; i < 6000; i++ {
		entries = append(entries, fmt.Sprintf("many/file_name_padding_%05d", i))
	}
	fsys := mkfs(t, entries...)
	r := runFind(fsys, "", "many", "-type", "f", "-exec", "echo", "{}", "+")
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	// each argument takes 29 bytes: after "echo", 131072 bytes hold 4519
	if len(lines) != 2 || strings.Count(lines[0], " ") != 4519-1 {
		t.Errorf("got %d batches, first of %d", len(lines), strings.Count(lines[0], " ")+1)
	}
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		pat, s string
		fold   bool
		want   bool
	}{
		{"*.go", "a.go", false, true},
		{"*.go", ".go", false, true},
		{"a?c", "abc", false, true},
		{"a?c", "a/c", false, true},
		{"[a-c]x", "bx", false, true},
		{"[!a-c]x", "bx", false, false},
		{"[^a-c]x", "dx", false, true},
		{"[]]", "]", false, true},
		{"[[:digit:]]*", "1a", false, true},
		{"\\*", "*", false, true},
		{"\\*", "a", false, false},
		{"[", "[", false, true},
		{"a*b*c", "aXbYbZc", false, true},
		{"é?", "éx", false, true},
		{"?", "é", false, true},
		{"F*", "foo", true, true},
		{"[A-Z]", "q", true, true},
		{"*", "", false, true},
		{"a\\", "a\\", false, true},
	} {
		if got := compileGlob(tc.pat, tc.fold).match(tc.s); got != tc.want {
			t.Errorf("glob %q ~ %q (fold %v) = %v", tc.pat, tc.s, tc.fold, got)
		}
	}
}

func TestEmacsRegex(t *testing.T) {
	for _, tc := range []struct {
		re, s string
		want  bool
	}{
		{`a+b?`, "aa", true},
		{`*a`, "*a", true},
		{`a\{2\}`, "a{2}", true},
		{`\(ab\)\1`, "abab", true},
		{`x\|y`, "y", true},
		{`a|b`, "a|b", true},
		{`(a)`, "(a)", true},
		{`[[:alpha:]]`, "a", false},
		{`a**`, "aaa", true},
		{`^a$`, "a", true},
		{`a^b`, "a^b", true},
		{`.*\.go`, "x/y.go", true},
		{`[a\]x`, `\x`, true},
		{`[a\]`, `\`, true},
	} {
		re, err := compileRegex(context.Background(), tc.re, "emacs", false)
		if err != nil {
			t.Errorf("%q: %v", tc.re, err)
			continue
		}
		if got := re.match(tc.s); got != tc.want {
			t.Errorf("%q ~ %q = %v, want %v", tc.re, tc.s, got, tc.want)
		}
	}
}

// TestAgainstGNU runs GNU find and ours over the same host directory and
// compares their output.
func TestAgainstGNU(t *testing.T) {
	if _, err := exec.LookPath("find"); err != nil {
		t.Skip("no GNU find")
	}
	dir := t.TempDir()
	for _, p := range []string{"d/e/g", "a/b"} {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "d/f"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d/e/x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big"), bytes.Repeat([]byte("x"), 5000), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f", filepath.Join(dir, "d/l")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nosuch", filepath.Join(dir, "d/dang")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(dir, "a/b/up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop2", filepath.Join(dir, "loop1")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop1", filepath.Join(dir, "loop2")); err != nil {
		t.Fatal(err)
	}
	table := hostTable(t, dir, volumes.ReadWrite)
	for _, args := range [][]string{
		{},
		{"-L", "."},
		{"-H", ".", "d/l", "loop1"},
		{".", "-xtype", "l"},
		{".", "-printf", "%p|%P|%f|%h|%H|%s|%d|%m|%M|%y|%Y|%l|%k|%b|%n\n"},
		{".", "-depth", "-name", "b", "-prune", "-o", "-print"},
		{".", "-perm", "-u+x", "-type", "f"},
		{".", "-perm", "/a+X"}, // X means x for directories: no /000 warning
		{".", "-perm", "-g+X", "-perm", "/o=X"},
		{".", "-size", "-2", "-o", "-size", "+9"},
		{".", "-empty"},
		{".", "-regex", `.*/[a-f]`},
		{".", "-newer", "d/f"},
		{".", "-mindepth", "2", "-name", "[a-z]", "-exec", "echo", "{}", "+"},
		{"d/", "-maxdepth", "1"},
		{"nosuch", "."},
	} {
		ns := table.Namespace(volumes.Options{Quota: &overlayfs.Quota{}, Home: "/home/user"})
		r := runFind(ns, "", args...)
		cmd := exec.Command("find", args...)
		cmd.Dir = dir
		cmd.Env = []string{"LANG=C.UTF-8", "PATH=/usr/bin:/bin"}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		code := 0
		if err := cmd.Run(); err != nil {
			code = cmd.ProcessState.ExitCode()
		}
		if r.Stdout != out.String() || r.Stderr != errb.String() || r.Code != code {
			t.Errorf("find %q:\nours out=%q err=%q code=%d\nGNU  out=%q err=%q code=%d",
				args, r.Stdout, r.Stderr, r.Code, out.String(), errb.String(), code)
		}
	}
}

// TM-RES-007: a -regex match that runs past the backtracking limit is
// reported, in find's words, with status 1, instead of silently false.
func TestRegexBacktrackingLimit(t *testing.T) {
	fsys := mkfs(t, "d/", "d/"+strings.Repeat("a", 40), "d/b")
	r := runFind(fsys, "", "d", "-regextype", "posix-extended", "-regex", `d/(a|aa)+\1\1b`)
	want := "find: ‘d/" + strings.Repeat("a", 40) + "’: regular expression match exceeded its backtracking limit; -regex is false from here on\n"
	if r.Code != 1 || r.Stdout != "" || r.Stderr != want {
		t.Errorf("code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	r = runFind(fsys, "", "d", "-regextype", "posix-extended", "-regex", `d/(b)\1*`)
	if r.Code != 0 || r.Stdout != "d/b\n" || r.Stderr != "" {
		t.Errorf("a quick back-reference match: %+v", r)
	}
}

func TestJoinAbs(t *testing.T) {
	for _, tc := range []struct{ dir, name, want string }{
		{"/", "a", "/a"}, {"/work", "a", "/work/a"}, {"/work/", "a", "/work/a"},
		{"/work/.", "a", "/work/a"}, {"/work/./", "a", "/work/a"}, {"/work/./.", "a", "/work/a"},
		{"/.", "a", "/a"}, {"/work/..", "a", "/work/../a"}, {"/work/.x", "a", "/work/.x/a"},
	} {
		if got := joinAbs(tc.dir, tc.name); got != tc.want {
			t.Errorf("joinAbs(%q, %q) = %q, want %q", tc.dir, tc.name, got, tc.want)
		}
	}
}

// hostTable binds host directory dir at /work, closed when the test ends.
func hostTable(t *testing.T, dir string, mode volumes.Mode) *volumes.Table {
	table, err := volumes.NewTable([]volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: mode}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })
	return table
}
