package grep

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// gnuFiles is the tree every differential case starts from.
var gnuFiles = map[string]string{
	"f":           "1a\n2b\n3a\n4b\n5b\n6b\n7a\n8b\n",
	"g":           "x\n",
	"words":       "foo bar\nfoobar\nbar_foo baz\nFOO Bar\nfoo-bar\n\nthe end foo\n",
	"nonl":        "no newline foo",
	"bin":         "foo\x00bar\nbaz\nfoo2\n",
	"enc":         "ok\ncaf\xe9 foo\nfoo\n",
	"utf":         "café naïve\nÜber straße\nplain ascii\n",
	"pats":        "foo\nbaz\n",
	"emptypats":   "",
	"d/a.txt":     "hello\nworld\n",
	"d/b.c":       "hello c\n",
	"d/sub/c.txt": "hello sub\n",
	"d/.hid":      "hello hidden\n",
	"crlf":        "dos line\r\nunix\n",
	"nul":         "one\x00two foo\x00three\x00",
	"many":        strings.Repeat("line\n", 30) + "target\n" + strings.Repeat("line\n", 30),
	"big":         bigText(),
	"latebin":     strings.Repeat("text line foo\n", 5000) + "bin\x00foo\n" + "after foo\n",
	"longline":    strings.Repeat("x", 600000) + "needle" + strings.Repeat("y", 1000) + "\nshort needle\n",
	"empty":       "",
}

// bigText is about 1.2 MB of numbered lines, several buffers long.
func bigText() string {
	var b strings.Builder
	for i := 0; i < 60000; i++ {
		fmt.Fprintf(&b, "line %d of the big file %s\n", i, []string{"alpha", "beta", "gamma", "delta"}[i%4])
	}
	return b.String()
}

var (
	gnuDirOnce sync.Once
	gnuDir     string
)

// runGNU runs the real grep over a copy of gnuFiles (grep only reads it).
func runGNU(t *testing.T, stdin string, args []string) (string, string, int) {
	t.Helper()
	gnuDirOnce.Do(func() {
		dir, err := os.MkdirTemp("", "grepgnu")
		if err != nil {
			t.Fatal(err)
		}
		for name, content := range gnuFiles {
			p := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		gnuDir = dir
	})
	dir := gnuDir
	cmd := exec.Command("grep", args[1:]...)
	if args[0] != "grep" {
		cmd = exec.Command("grep", append([]string{map[string]string{"egrep": "-E", "fgrep": "-F"}[args[0]]}, args[1:]...)...)
	}
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestAgainstGNU(t *testing.T) {
	if _, err := exec.LookPath("grep"); err != nil {
		t.Skip("no grep")
	}
	cases := []struct {
		stdin string
		args  []string
		// sorted compares output lines as a set (directory order differs)
		sorted bool
	}{
		{"", []string{"grep", "a", "f"}, false},
		{"", []string{"grep", "-n", "a", "f", "g"}, false},
		{"", []string{"grep", "-c", "a", "f", "g"}, false},
		{"", []string{"grep", "-v", "-n", "a", "f"}, false},
		{"", []string{"grep", "-l", "a", "f", "g"}, false},
		{"", []string{"grep", "-L", "a", "f", "g"}, false},
		{"", []string{"grep", "-L", "x", "g"}, false},
		{"", []string{"grep", "-q", "a", "f"}, false},
		{"", []string{"grep", "-q", "zzz", "f"}, false},
		{"", []string{"grep", "-q", "a", "nope", "f"}, false},
		{"", []string{"grep", "-s", "a", "nope"}, false},
		{"", []string{"grep", "a", "nope", "f"}, false},
		{"", []string{"grep", "-H", "a", "f"}, false},
		{"", []string{"grep", "-h", "a", "f", "g"}, false},
		{"", []string{"grep", "-i", "foo", "words"}, false},
		{"", []string{"grep", "-y", "foo", "words"}, false},
		{"", []string{"grep", "-i", "--no-ignore-case", "foo", "words"}, false},
		{"", []string{"grep", "-w", "foo", "words"}, false},
		{"", []string{"grep", "-wo", "foo", "words"}, false},
		{"", []string{"grep", "-wn", "bar", "words"}, false},
		{"", []string{"grep", "-x", "foobar", "words"}, false},
		{"", []string{"grep", "-x", "", "words"}, false},
		{"", []string{"grep", "-w", "", "words"}, false},
		{"", []string{"grep", "-o", "o*", "words"}, false},
		{"", []string{"grep", "-ob", "foo", "words"}, false},
		{"", []string{"grep", "-bn", "a", "f"}, false},
		{"", []string{"grep", "-E", "fo+|ba[rz]", "-o", "words"}, false},
		{"", []string{"grep", "-F", "o-b", "words"}, false},
		{"", []string{"grep", "-F", "-x", "foobar", "words"}, false},
		{"", []string{"grep", "-F", "-w", "-i", "foo", "words"}, false},
		{"", []string{"grep", "-e", "foo", "-e", "baz", "-o", "words"}, false},
		{"", []string{"grep", "foo\nbaz", "words"}, false},
		{"", []string{"grep", "-f", "pats", "words"}, false},
		{"", []string{"grep", "-f", "emptypats", "words"}, false},
		{"", []string{"grep", "-v", "-f", "emptypats", "f"}, false},
		{"", []string{"grep", "-f", "nope", "words"}, false},
		{"", []string{"grep", "-m", "2", "a", "f"}, false},
		{"", []string{"grep", "-m1", "-A2", "a", "f"}, false},
		{"", []string{"grep", "-m2", "-c", "b", "f"}, false},
		{"", []string{"grep", "-m", "0", "a", "f"}, false},
		{"", []string{"grep", "-A1", "a", "f"}, false},
		{"", []string{"grep", "-B2", "-n", "a", "f"}, false},
		{"", []string{"grep", "-C1", "7", "f"}, false},
		{"", []string{"grep", "-2", "target", "many"}, false},
		{"", []string{"grep", "-nA0", "a", "f"}, false},
		{"", []string{"grep", "-A1", "--group-separator=XX", "a", "f"}, false},
		{"", []string{"grep", "-A1", "--no-group-separator", "a", "f"}, false},
		{"", []string{"grep", "-v", "-B1", "b", "f"}, false},
		{"", []string{"grep", "-A1", "x", "g", "f", "g"}, false},
		{"", []string{"grep", "-c", "-A1", "a", "f"}, false},
		{"", []string{"grep", "foo", "nonl"}, false},
		{"", []string{"grep", "-c", "$", "nonl"}, false},
		{"", []string{"grep", "foo", "bin"}, false},
		{"", []string{"grep", "-c", "foo", "bin"}, false},
		{"", []string{"grep", "-a", "foo", "bin"}, false},
		{"", []string{"grep", "-I", "foo", "bin", "g"}, false},
		{"", []string{"grep", "--binary-files=without-match", "-L", "foo", "bin"}, false},
		{"", []string{"grep", "--binary-files=text", "-n", "bar", "bin"}, false},
		{"", []string{"grep", "--binary-files=foo", "x", "g"}, false},
		{"", []string{"grep", "-n", "foo", "enc"}, false},
		{"", []string{"grep", "-o", "foo", "enc"}, false},
		{"", []string{"grep", "-v", "zzz", "enc"}, false},
		{"", []string{"grep", "-z", "foo", "nul"}, false},
		{"", []string{"grep", "-z", "-c", "o", "nul"}, false},
		{"", []string{"grep", "-zZl", "o", "nul", "g"}, false},
		{"", []string{"grep", "-Z", "-n", "a", "f", "g"}, false},
		{"", []string{"grep", "-T", "-n", "a", "f", "g"}, false},
		{"", []string{"grep", "-T", "-H", "-b", "a", "f"}, false},
		{"", []string{"grep", "--color=always", "-n", "a", "f", "g"}, false},
		{"", []string{"grep", "--color=always", "-o", "-b", "a\\|b", "f"}, false},
		{"", []string{"grep", "--color=always", "-A1", "-n", "7", "f"}, false},
		{"", []string{"grep", "--color=always", "-c", "a", "f", "g"}, false},
		{"", []string{"grep", "--color=always", "-v", "a", "f"}, false},
		{"", []string{"grep", "--color=always", "-v", "-A1", "b", "f"}, false},
		{"", []string{"grep", "--color=never", "a", "f"}, false},
		{"", []string{"grep", "--colour=always", "-i", "foo", "words"}, false},
		{"", []string{"grep", "--color=bogus", "a", "f"}, false},
		{"", []string{"grep", "-r", "hello", "d"}, true},
		{"", []string{"grep", "-r", "hello", "d/"}, true},
		{"", []string{"grep", "-rl", "hello", "./d"}, true},
		{"", []string{"grep", "-rh", "hello", "d"}, true},
		{"", []string{"grep", "-rc", "hello", "d", "--include=*.txt"}, true},
		{"", []string{"grep", "-r", "hello", "d", "--exclude=*.txt"}, true},
		{"", []string{"grep", "-r", "hello", "d", "--exclude-dir=sub"}, true},
		{"", []string{"grep", "-r", "--include=*.c", "--exclude=b*", "hello", "d"}, true},
		{"", []string{"grep", "-r", "hello", "d/sub"}, false},
		{"", []string{"grep", "-r", "hello", "d/a.txt"}, false},
		{"", []string{"grep", "hello", "d"}, false},
		{"", []string{"grep", "-s", "hello", "d"}, false},
		{"", []string{"grep", "-d", "skip", "hello", "d", "d/a.txt"}, false},
		{"", []string{"grep", "-d", "bogus", "hello", "d"}, false},
		{"", []string{"grep", "--exclude=d/*", "hello", "d/a.txt"}, false},
		{"x\ny\n", []string{"grep", "x"}, false},
		{"x\ny\n", []string{"grep", "-H", "x"}, false},
		{"x\ny\n", []string{"grep", "--label=in", "-c", "x", "-", "g"}, false},
		{"x\ny\n", []string{"grep", "-n", "y", "-"}, false},
		{"foo\n", []string{"grep", "-f", "-", "words"}, false},
		{"", []string{"grep"}, false},
		{"", []string{"grep", "--frob", "x"}, false},
		{"", []string{"grep", "-k", "x"}, false},
		{"", []string{"grep", "-e"}, false},
		{"", []string{"grep", "--context"}, false},
		{"", []string{"grep", "--re", "x"}, false},
		{"", []string{"grep", "--fixed", "a", "f"}, false},
		{"", []string{"grep", "--col=always", "a", "f"}, false},
		{"", []string{"grep", "-E", "-F", "a", "f"}, false},
		{"", []string{"egrep", "-F", "a", "f"}, false},
		{"", []string{"grep", "-A", "x", "a", "f"}, false},
		{"", []string{"grep", "-C", "-1", "a", "f"}, false},
		{"", []string{"grep", "-m", "x", "a", "f"}, false},
		{"", []string{"grep", "-m", "-1", "a", "f"}, false},
		{"", []string{"grep", "-D", "foo", "a", "f"}, false},
		{"", []string{"grep", "-u", "a", "f"}, false},
		{"", []string{"grep", "-P", "-e", "a", "-e", "b", "f"}, false},
		{"", []string{"grep", "-P", "\\d[a-z]", "-o", "f"}, false},
		{"", []string{"grep", "-P", "(?<=o)o", "-o", "words"}, false},
		{"", []string{"grep", "-Pw", "foo", "words"}, false},
		{"", []string{"grep", "-Px", "foo.*", "words"}, false},
		{"", []string{"grep", "-Pi", "^foo", "words"}, false},
		{"", []string{"grep", "\\(", "f"}, false},
		{"", []string{"grep", "-E", "a{1", "f"}, false},
		{"", []string{"grep", "[[:foo:]]", "f"}, false},
		{"", []string{"grep", "[:space:]", "f"}, false},
		{"", []string{"grep", "-E", "*a", "f"}, false},
		{"", []string{"grep", "a\\{1", "f"}, false},
		{"", []string{"grep", "\\(a\\)\\2", "f"}, false},
		{"", []string{"grep", "-o", "\\(.\\)\\1", "words"}, false},
		{"", []string{"grep", "-c", "\\<foo\\>", "words"}, false},
		{"", []string{"grep", "-o", "\\bba\\w*", "words"}, false},
		{"", []string{"grep", "-o", "[[:alpha:]]*ï[[:alpha:]]*", "utf"}, false},
		{"", []string{"grep", "-io", "über", "utf"}, false},
		{"", []string{"grep", "-o", "\\w\\+", "utf"}, false},
		{"", []string{"grep", "-w", "caf", "utf"}, false},
		{"", []string{"grep", "-c", "dos line$", "crlf"}, false},
		{"", []string{"grep", "-x", "-e", "x", "-e", "1a", "f", "g"}, false},
		{"", []string{"grep", "a", "f", "--", "-v"}, false},
		{"", []string{"grep", "-e", "-v", "f"}, false},
		{"", []string{"grep", "--help"}, false},
		{"", []string{"fgrep", "a.b", "f"}, false},
		{"", []string{"grep", "-c", "gamma", "big"}, false},
		{"", []string{"grep", "-n", "line 4999[0-9] ", "big"}, false},
		{"", []string{"grep", "-n", "-B3", "-A2", "line 1[0-9]*00 of", "big"}, false},
		{"", []string{"grep", "-b", "-C1", "line 1[0-9]*000 of", "big"}, false},
		{"", []string{"grep", "-c", "-v", "a", "big"}, false},
		{"", []string{"grep", "-vn", "line\\|big", "big"}, false},
		{"", []string{"grep", "-n", "-e", "line 777 ", "-e", "line 42 ", "big"}, false},
		{"", []string{"grep", "-n", "-F", "-e", "line 777 ", "-e", "line 42 ", "-e", "59999", "big"}, false},
		{"", []string{"grep", "-m3", "-n", "-A1", "delta", "big"}, false},
		{"", []string{"grep", "-wc", "alpha", "big"}, false},
		{"", []string{"grep", "-ic", "ALPHA", "big"}, false},
		{"", []string{"grep", "-xc", "line 1.*", "big"}, false},
		{"", []string{"grep", "-c", "foo", "latebin"}, false},
		{"", []string{"grep", "-n", "after", "latebin"}, false},
		{"", []string{"grep", "-c", "needle", "longline"}, false},
		{"", []string{"grep", "-ob", "needle", "longline"}, false},
		{"", []string{"grep", "-c", "", "empty"}, false},
		{"", []string{"grep", "-L", "x", "empty"}, false},
		{"", []string{"grep", "-v", "x", "empty"}, false},
		{"", []string{"grep", "-e", "1a\n", "f"}, false},
		{"", []string{"grep", "-c", "-e", "", "f"}, false},
		{"", []string{"grep", "-o", "-v", "a", "f"}, false},
		{"", []string{"grep", "-l", "-v", "a", "f", "g"}, false},
		{"", []string{"grep", "-c", "-m2", "-v", "a", "f"}, false},
		{"", []string{"grep", "-z", "^two", "nul"}, false},
		{"", []string{"grep", "-zo", "o.", "nul"}, false},
		{"", []string{"grep", "-rn", "hello", "--include=*.c", "."}, true},
		{"", []string{"grep", "-r", "--exclude-dir=.", "hello", "."}, true},
		{"", []string{"grep", "-r", "--exclude-dir=d", "hello", "d"}, false},
		{"", []string{"grep", "--exclude-dir=d", "hello", "d"}, false},
		{"", []string{"grep", "-C", "1", "-c", "x", "g"}, false},
		{"", []string{"grep", "-nb", "-o", `\w\+`, "utf"}, false},
		{"", []string{"grep", "-E", `(a|b)\1`, "-c", "f"}, false},
		{"", []string{"grep", "-E", "^(.)(.)$", "-o", "f"}, false},
		{"", []string{"grep", "-e", "a", "-f", "pats", "-c", "words", "f"}, false},
		{"", []string{"grep", "-hc", "a", "f", "g"}, false},
		{"", []string{"grep", "-Hc", "a", "f"}, false},
		{"", []string{"grep", "--count", "--max-count=1", "a", "f"}, false},
		{"", []string{"grep", "--files-with-matches", "a", "f", "g"}, false},
		{"", []string{"grep", "--files-without-match", "a", "f", "g"}, false},
		{"", []string{"grep", "--only-matching", "--line-number", "[0-9]", "f"}, false},
		{"", []string{"grep", "--invert-match", "--word-regexp", "foo", "words"}, false},
		{"", []string{"grep", "--line-regexp", "--fixed-strings", "g", "f", "g"}, false},
		{"", []string{"grep", "--null", "--files-with-matches", "a", "f", "g"}, false},
		{"", []string{"grep", "--after-context=1", "--before-context=1", "5b", "f"}, false},
		{"", []string{"grep", "--context=1", "--regexp=5b", "f"}, false},
		{"", []string{"grep", "--initial-tab", "--byte-offset", "a", "f"}, false},
		{"", []string{"grep", "--with-filename", "--no-filename", "a", "f"}, false},
		{"", []string{"grep", "--line-buffered", "a", "f"}, false},
		{"", []string{"grep", "--basic-regexp", `a\+`, "f"}, false},
		{"", []string{"grep", "--extended-regexp", "a+", "f"}, false},
		{"", []string{"grep", "--perl-regexp", "a+", "f"}, false},
		{"", []string{"grep", "--text", "-c", "foo", "bin"}, false},
		{"", []string{"grep", "--quiet", "a", "f"}, false},
		{"", []string{"grep", "--silent", "a", "f"}, false},
		{"", []string{"grep", "--no-messages", "a", "nope"}, false},
		{"", []string{"grep", "--recursive", "sub", "d"}, false},
		{"", []string{"grep", "--dereference-recursive", "sub", "d"}, false},
		{"", []string{"grep", "--null-data", "-c", "t", "nul"}, false},
		{"", []string{"grep", "--ignore-case", "--count", "foo", "words"}, false},
		{"", []string{"grep", "--file=pats", "--count", "words"}, false},
		{"", []string{"grep", "--label=X", "-H", "x", "-"}, false},
		{"", []string{"grep", "--binary-files=binary", "foo", "bin"}, false},
		{"", []string{"grep", "--exclude-from=pats", "-r", "hello", "d"}, true},
		{"", []string{"grep", "-ri", "HELLO", "--include", "*.c", "d"}, false},
		{"", []string{"grep", "-c", "dos line.$", "crlf"}, false},
		{"", []string{"egrep", "a|x", "f", "g"}, false},
	}
	defer func() {
		if gnuDir != "" {
			os.RemoveAll(gnuDir)
		}
	}()
	fsys := (&cmdtest.Env{Files: gnuFiles}).NewFS()
	for _, tc := range cases {
		wantOut, wantErr, wantCode := runGNU(t, tc.stdin, tc.args)
		e := cmdtest.Env{Stdin: tc.stdin}
		got := e.RunIn(fsys, Run, tc.args...)
		gotOut := got.Stdout
		if tc.sorted {
			wantOut, gotOut = sortLines(wantOut), sortLines(gotOut)
		}
		if gotOut != wantOut || got.Stderr != wantErr || got.Code != wantCode {
			t.Errorf("%q (stdin %q):\n got  %q %q %d\n want %q %q %d", tc.args, tc.stdin, gotOut, got.Stderr, got.Code, wantOut, wantErr, wantCode)
		}
	}
}

func sortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lines[j] < lines[j-1]; j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
	return strings.Join(lines, "")
}
