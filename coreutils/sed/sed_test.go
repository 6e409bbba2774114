package sed_test

import (
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/sed"
	"github.com/bashbox/bashbox/vfs"
)

type tcase struct {
	name   string
	files  map[string]string
	stdin  string
	args   []string
	out    string
	err    string
	code   int
	result map[string]string // files expected afterwards
}

func runTable(t *testing.T, cases []tcase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: tc.files, Stdin: tc.stdin}
			res := env.Run(sed.Run, append([]string{"sed"}, tc.args...)...)
			if res.Stdout != tc.out || res.Stderr != tc.err || res.Code != tc.code {
				t.Fatalf("sed %q\n got:  out=%q err=%q code=%d\n want: out=%q err=%q code=%d",
					tc.args, res.Stdout, res.Stderr, res.Code, tc.out, tc.err, tc.code)
			}
			for name, want := range tc.result {
				got, err := readFile(res.FS, "/work/"+name)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

func readFile(fsys builtins.FS, name string) (string, error) {
	b, err := vfs.ReadFile(fsys, name)
	return string(b), err
}

func TestTable(t *testing.T) {
	runTable(t, []tcase{
		{name: "substitute", stdin: "hello world\n", args: []string{"s/o/0/g"}, out: "hell0 w0rld\n"},
		{name: "nth", stdin: "aaaa\n", args: []string{"s/a/b/3"}, out: "aaba\n"},
		{name: "nth global", stdin: "aaaa\n", args: []string{"s/a/b/2g"}, out: "abbb\n"},
		{name: "empty matches", stdin: "abc\n", args: []string{"s/x*/-/g"}, out: "-a-b-c-\n"},
		{name: "empty after match", stdin: "baaac\n", args: []string{"s/a*/x/g"}, out: "xbxcx\n"},
		{name: "backrefs", stdin: "ab\n", args: []string{`s/\(a\)\(b\)/\2\1/`}, out: "ba\n"},
		{name: "ere", stdin: "ab\n", args: []string{"-E", `s/(a)(b)/\2\1/`}, out: "ba\n"},
		{name: "case", stdin: "foo bar\n", args: []string{`s/\w\+/\u&/g`}, out: "Foo Bar\n"},
		{name: "upper utf8", stdin: "é\n", args: []string{`s/.*/\U&/`}, out: "É\n"},
		{name: "quiet p", stdin: "a\nb\n", args: []string{"-n", "2p"}, out: "b\n"},
		{name: "last", stdin: "a\nb\n", args: []string{"-n", "$p"}, out: "b\n"},
		{name: "range", stdin: "1\n2\n3\n4\n", args: []string{"2,3d"}, out: "1\n4\n"},
		{name: "step", stdin: "1\n2\n3\n4\n", args: []string{"-n", "0~2p"}, out: "2\n4\n"},
		{name: "zero range", stdin: "x\nx\n", args: []string{"0,/x/s//y/"}, out: "y\nx\n"},
		{name: "append insert change", stdin: "a\nb\n", args: []string{"1i\\\nI\n1a A\n2c C"}, out: "I\na\nA\nC\n"},
		{name: "missing newline", stdin: "a\nb", args: []string{"p"}, out: "a\na\nb\nb"},
		{name: "q code", stdin: "a\nb\n", args: []string{"q3"}, out: "a\n", code: 3},
		{name: "Q", stdin: "a\nb\n", args: []string{"2Q"}, out: "a\n"},
		{name: "tac", stdin: "a\nb\nc\n", args: []string{"-n", "1!G;h;$p"}, out: "c\nb\na\n"},
		{name: "join", stdin: "a\nb\nc\n", args: []string{":a;N;$!ba;s/\\n/,/g"}, out: "a,b,c\n"},
		{name: "y", stdin: "abc\n", args: []string{"y/abc/xyz/"}, out: "xyz\n"},
		{name: "l", stdin: "a\tb\x01\n", args: []string{"-n", "l"}, out: "a\\tb\\001$\n"},
		{name: "equals", stdin: "a\nb\n", args: []string{"-n", "$="}, out: "2\n"},
		{name: "null data", stdin: "a\x00b\x00", args: []string{"-z", "s/^/>/"}, out: ">a\x00>b\x00"},
		{name: "separate", files: map[string]string{"a": "1\n2\n", "b": "3\n4\n"}, args: []string{"-s", "-n", "$p", "a", "b"}, out: "2\n4\n"},
		{name: "stream", files: map[string]string{"a": "1\n2\n", "b": "3\n4\n"}, args: []string{"-n", "$p", "a", "b"}, out: "4\n"},
		{name: "missing file", files: map[string]string{"a": "1\n"}, args: []string{"p", "nosuch", "a"}, out: "1\n1\n",
			err: "sed: can't read nosuch: No such file or directory\n", code: 2},
		{name: "w file", stdin: "a\nb\n", args: []string{"-n", "/b/w out"}, result: map[string]string{"out": "b\n"}},
		{name: "r file", files: map[string]string{"r": "R\n"}, stdin: "a\nb\n", args: []string{"1r r"}, out: "a\nR\nb\n"},
		{name: "R file", files: map[string]string{"r": "R1\nR2\n"}, stdin: "a\nb\nc\n", args: []string{"R r"}, out: "a\nR1\nb\nR2\nc\n"},
		{name: "script file", files: map[string]string{"s.sed": "#n\n/b/p\n"}, stdin: "a\nb\n", args: []string{"-f", "s.sed"}, out: "b\n"},
		{name: "in place", files: map[string]string{"f": "a\nb\n"}, args: []string{"-i", "s/a/A/", "f"},
			result: map[string]string{"f": "A\nb\n"}},
		{name: "in place backup", files: map[string]string{"f": "a\n"}, args: []string{"-i.orig", "s/a/A/", "f"},
			result: map[string]string{"f": "A\n", "f.orig": "a\n"}},
		{name: "in place star", files: map[string]string{"f": "a\n"}, args: []string{"--in-place=bak-*", "s/a/A/", "f"},
			result: map[string]string{"f": "A\n", "bak-f": "a\n"}},
		{name: "in place separate", files: map[string]string{"f": "1\n2\n", "g": "3\n4\n"}, args: []string{"-i", "1d", "f", "g"},
			result: map[string]string{"f": "2\n", "g": "4\n"}},
		{name: "in place no files", args: []string{"-i", "p"}, err: "sed: no input files\n", code: 4},
		{name: "in place dir", files: map[string]string{"d/": ""}, args: []string{"-i", "p", "d"},
			err: "sed: couldn't edit d: not a regular file\n", code: 4},

		{name: "unknown command", args: []string{"k"}, err: "sed: -e expression #1, char 1: unknown command: `k'\n", code: 1},
		{name: "unterminated s", args: []string{"s/a/b"}, err: "sed: -e expression #1, char 5: unterminated `s' command\n", code: 1},
		{name: "unknown s option", args: []string{"s/a/b/k"}, err: "sed: -e expression #1, char 7: unknown option to `s'\n", code: 1},
		{name: "second expression", args: []string{"-e", "p", "-e", "}"}, err: "sed: -e expression #2, char 1: unexpected `}'\n", code: 1},
		{name: "unmatched brace", args: []string{"{p"}, err: "sed: -e expression #1, char 0: unmatched `{'\n", code: 1},
		{name: "label", args: []string{"b x"}, err: "sed: can't find label for jump to `x'\n", code: 4},
		{name: "regex error", args: []string{`s/\(//`}, err: "sed: -e expression #1, char 6: Unmatched ( or \\(\n", code: 1},
		{name: "bad reference", args: []string{`s/a/\1/`}, err: "sed: -e expression #1, char 7: invalid reference \\1 on `s' command's RHS\n", code: 1},
		{name: "script file error", files: map[string]string{"s": "p\nk\n"}, args: []string{"-f", "s"},
			err: "sed: file s line 2: unknown command: `k'\n", code: 1},
		{name: "missing script file", args: []string{"-f", "nope"}, err: "sed: couldn't open file nope: No such file or directory\n", code: 4},
		{name: "e command", args: []string{"e ls"},
			err: "sed: -e expression #1, char 1: e command disabled in sandbox mode (commands cannot be executed)\n", code: 1},
		{name: "e flag", args: []string{"s/a/ls/e"},
			err: "sed: -e expression #1, char 8: e flag of `s' disabled in sandbox mode (commands cannot be executed)\n", code: 1},
		{name: "sandbox", args: []string{"--sandbox", "r x"}, err: "sed: -e expression #1, char 1: e/r/w commands disabled in sandbox mode\n", code: 1},
		{name: "debug", args: []string{"--debug", "p"}, err: "sed: option '--debug' is not supported\n", code: 1},
		{name: "posix N", stdin: "1\n2\n3\n", args: []string{"--posix", "N"}, out: "1\n2\n"},
		{name: "version", args: []string{"--version"}, out: "sed (bashbox) " + builtins.ReleaseVersion + "\n"},
	})
}

func TestPosixlyCorrectN(t *testing.T) {
	env := cmdtest.Env{Stdin: "1\n2\n3\n", Env: []string{"POSIXLY_CORRECT=1", "LANG=C.UTF-8"}}
	res := env.Run(sed.Run, "sed", "N")
	if res.Stdout != "1\n2\n" || res.Code != 0 {
		t.Fatalf("got %q %d", res.Stdout, res.Code)
	}
}

func TestUsageErrors(t *testing.T) {
	env := cmdtest.Env{}
	res := env.Run(sed.Run, "sed", "--frob")
	if res.Code != 1 || !strings.HasPrefix(res.Stderr, "sed: unrecognized option '--frob'\nUsage: sed [OPTION]...") {
		t.Fatalf("got %d %q", res.Code, res.Stderr)
	}
	if strings.Contains(res.Stderr, "E-mail") {
		t.Error("usage error must not carry the bug-report line")
	}
	res = env.Run(sed.Run, "sed")
	if res.Code != 1 || !strings.HasPrefix(res.Stderr, "Usage: sed ") || res.Stdout != "" {
		t.Fatalf("no script: got %d %q", res.Code, res.Stderr)
	}
	res = env.Run(sed.Run, "sed", "--help")
	if res.Code != 0 || !strings.HasPrefix(res.Stdout, "Usage: sed ") || !strings.Contains(res.Stdout, "--in-place") {
		t.Fatalf("help: got %d %q", res.Code, res.Stdout)
	}
}

func TestInPlaceKeepsMode(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"f": "a\n"}}
	fsys := env.NewFS()
	if err := fsys.Chmod("/work/f", 0o640); err != nil {
		t.Fatal(err)
	}
	res := env.RunIn(fsys, sed.Run, "sed", "-i", "s/a/b/", "f")
	if res.Code != 0 || res.Stderr != "" {
		t.Fatalf("got %d %q", res.Code, res.Stderr)
	}
	fi, err := fsys.Stat("/work/f")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	if got, _ := readFile(fsys, "/work/f"); got != "b\n" {
		t.Errorf("content %q", got)
	}
	assertNoTemp(t, fsys)
}

func assertNoTemp(t *testing.T, fsys builtins.FS) {
	t.Helper()
	entries, _ := fsys.ReadDir("/work")
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "sed") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestInPlaceSymlink(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"target": "a\n", "link": "->target"}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, sed.Run, "sed", "-i", "s/a/b/", "link")
	if res.Code != 0 {
		t.Fatalf("got %d %q", res.Code, res.Stderr)
	}
	// Without --follow-symlinks the link is replaced by a regular file.
	if fi, _, err := fsys.LstatIfPossible("/work/link"); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		t.Errorf("link should now be a regular file")
	}
	if got, _ := readFile(fsys, "/work/target"); got != "a\n" {
		t.Errorf("target changed: %q", got)
	}

	env = cmdtest.Env{Files: map[string]string{"target": "a\n", "link": "->target"}}
	fsys = env.NewFS()
	res = env.RunIn(fsys, sed.Run, "sed", "-i", "--follow-symlinks", "s/a/b/", "link")
	if res.Code != 0 {
		t.Fatalf("got %d %q", res.Code, res.Stderr)
	}
	if fi, _, err := fsys.LstatIfPossible("/work/link"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("link should still be a symlink")
	}
	if got, _ := readFile(fsys, "/work/target"); got != "b\n" {
		t.Errorf("target = %q", got)
	}
}

// roFS refuses to create files, as a read-only file system does.
type roFS struct{ builtins.FS }

func (r roFS) OpenFile(name string, flag int, perm os.FileMode) (vfs.File, error) {
	if flag&os.O_CREATE != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EROFS}
	}
	return r.FS.OpenFile(name, flag, perm)
}

func TestInPlaceReadOnly(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"f": "a\n", "g": "b\n"}}
	fsys := roFS{env.NewFS()}
	res := env.RunIn(fsys, sed.Run, "sed", "-i", "s/a/b/", "f", "g")
	if res.Code != 4 {
		t.Fatalf("code %d", res.Code)
	}
	if !strings.HasPrefix(res.Stderr, "sed: couldn't open temporary file ./sed") ||
		!strings.HasSuffix(res.Stderr, ": Read-only file system\n") {
		t.Errorf("stderr %q", res.Stderr)
	}
	if got, _ := readFile(fsys, "/work/f"); got != "a\n" {
		t.Errorf("f changed: %q", got)
	}
}

func TestErrorRemovesTemp(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"f": "a\n", "d/": ""}}
	fsys := env.NewFS()
	res := env.RunIn(fsys, sed.Run, "sed", "-i", "r d", "f")
	if res.Code != 4 || res.Stderr != "sed: read error on d: Is a directory\n" {
		t.Fatalf("got %d %q", res.Code, res.Stderr)
	}
	if got, _ := readFile(fsys, "/work/f"); got != "a\n" {
		t.Errorf("f changed: %q", got)
	}
	assertNoTemp(t, fsys)
}

func TestCancelInfiniteLoop(t *testing.T) {
	(&cmdtest.Env{Stdin: "x\n", Env: []string{"LANG=C.UTF-8"}}).RunCancelled(t, 100*time.Millisecond, sed.Run, "sed", ":a;ba")
}

func TestBrokenPipe(t *testing.T) {
	env := cmdtest.Env{Stdin: strings.Repeat("line\n", 100000), PipeAfter: 1, Env: []string{"LANG=C.UTF-8"}}
	r := env.Run(sed.Run, "sed", "p")
	if r.Code != 141 {
		t.Errorf("code %d, want 141", r.Code)
	}
	if r.Stderr != "" {
		t.Errorf("stderr %q", r.Stderr)
	}
}
