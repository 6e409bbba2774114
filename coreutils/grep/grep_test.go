package grep

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestGrep(t *testing.T) {
	files := map[string]string{
		"f":           "1a\n2b\n3a\n4b\n5b\n6b\n7a\n8b\n",
		"w":           "foo bar\nfoobar\nbar_foo\nFOO\n",
		"bin":         "foo\x00bar\n",
		"d/x.txt":     "hit\n",
		"d/sub/y.txt": "hit\n",
		"d/z.c":       "hit\n",
	}
	for _, c := range []struct {
		args      []string
		stdin     string
		out, err  string
		code      int
		sortedOut bool
	}{
		{args: []string{"grep", "a", "f"}, out: "1a\n3a\n7a\n"},
		{args: []string{"grep", "-n", "-v", "b", "f"}, out: "1:1a\n3:3a\n7:7a\n"},
		{args: []string{"grep", "-c", "b", "f"}, out: "5\n"},
		{args: []string{"grep", "-A1", "7", "f"}, out: "7a\n8b\n"},
		{args: []string{"grep", "-B1", "-n", "3a", "f"}, out: "2-2b\n3:3a\n"},
		{args: []string{"grep", "-A0", "a", "f"}, out: "1a\n--\n3a\n--\n7a\n"},
		{args: []string{"grep", "-1", "7a", "f"}, out: "6b\n7a\n8b\n"},
		{args: []string{"grep", "-m2", "-c", "a", "f"}, out: "2\n"},
		{args: []string{"grep", "-w", "foo", "w"}, out: "foo bar\n"},
		{args: []string{"grep", "-iwx", "foo", "w"}, out: "FOO\n"},
		{args: []string{"grep", "-o", "o\\+", "w"}, out: "oo\noo\noo\n"},
		{args: []string{"grep", "-bo", "bar", "w"}, out: "4:bar\n11:bar\n15:bar\n"},
		{args: []string{"grep", "-E", "^(foo|bar)_", "w"}, out: "bar_foo\n"},
		{args: []string{"grep", "-F", "o_f", "w"}, code: 1},
		{args: []string{"grep", "-F", "r_f", "w"}, out: "bar_foo\n"},
		{args: []string{"grep", "-l", "a", "f", "w"}, out: "f\nw\n"},
		{args: []string{"grep", "-L", "1a", "f", "w"}, out: "w\n"},
		{args: []string{"grep", "-H", "-Z", "8", "f"}, out: "f\x008b\n"},
		{args: []string{"grep", "foo", "bin"}, err: "grep: bin: binary file matches\n"},
		{args: []string{"grep", "-c", "bar", "bin"}, out: "1\n"},
		{args: []string{"grep", "-r", "hit", "d"}, out: "d/sub/y.txt:hit\nd/x.txt:hit\nd/z.c:hit\n", sortedOut: true},
		{args: []string{"grep", "-r", "--include=*.c", "hit", "d"}, out: "d/z.c:hit\n"},
		{args: []string{"grep", "-rl", "--exclude-dir=sub", "hit", "d"}, out: "d/x.txt\nd/z.c\n", sortedOut: true},
		{args: []string{"grep", "hit", "d"}, err: "grep: d: Is a directory\n", code: 2},
		{args: []string{"grep", "x", "nope"}, err: "grep: nope: No such file or directory\n", code: 2},
		{args: []string{"grep", "zzz", "f"}, code: 1},
		{args: []string{"grep", "x"}, stdin: "x\ny\n", out: "x\n"},
		{args: []string{"grep", "-H", "x"}, stdin: "x\n", out: "(standard input):x\n"},
		{args: []string{"egrep", "a|x", "f"}, out: "1a\n3a\n7a\n"},
		{args: []string{"fgrep", "a|x", "f"}, code: 1},
		{args: []string{"grep", "\\(", "f"}, err: "grep: Unmatched ( or \\(\n", code: 2},
		{args: []string{"grep", "--frob"}, err: "grep: unrecognized option '--frob'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", code: 2},
		{args: []string{"grep"}, err: "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", code: 2},
		{args: []string{"grep", "-E", "*a", "f"}, out: "1a\n3a\n7a\n", err: "grep: warning: * at start of expression\n"},
		{args: []string{"grep", "--color=always", "3", "f"}, out: "\x1b[01;31m\x1b[K3\x1b[m\x1b[Ka\n"},
		{args: []string{"grep", "--version"}, out: "grep (bashbox) " + builtins.ReleaseVersion + "\n"},
	} {
		e := cmdtest.Env{Files: files, Stdin: c.stdin}
		r := e.Run(Run, c.args...)
		out := r.Stdout
		if c.sortedOut {
			out = sortLines(out)
		}
		if out != c.out || r.Stderr != c.err || r.Code != c.code {
			t.Errorf("%q: got %q %q %d, want %q %q %d", c.args, out, r.Stderr, r.Code, c.out, c.err, c.code)
		}
	}
}

func TestPrescan(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"-5 x", "--context=5 x"},
		{"-n5 x", "--context=5 -n x"},
		{"-A5 x", "-A5 x"},
		{"-e -5 x", "-e -5 x"},
		{"--col=always x", "--color=always x"},
		{"--fixed x", "--fixed-strings x"},
		{"--silent x", "--quiet x"},
		{"-- -5", "-- -5"},
	} {
		got, err := prescan(strings.Fields(c.in))
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("prescan(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestLowerASCII(t *testing.T) {
	var all []byte
	for i := 0; i < 256; i++ {
		all = append(all, byte(i))
	}
	all = append(all, "Hello WORLD @[`{ ÉCOLE"...)
	got := lowerASCII(nil, all)
	for i, c := range all {
		want := c
		if c >= 'A' && c <= 'Z' {
			want += 'a' - 'A'
		}
		if got[i] != want {
			t.Fatalf("lowerASCII at %d: %q -> %q", i, c, got[i])
		}
	}
}

func TestExcludeRules(t *testing.T) {
	f := []filter{{glob: "*.c", include: true}, {glob: "b*"}}
	if !excludedFile(f, "b.c", false) || !excludedFile(f, "a.txt", false) || excludedFile(f, "a.c", false) {
		t.Errorf("--include=*.c --exclude=b*: wrong decisions")
	}
	f = []filter{{glob: "b*"}, {glob: "*.c", include: true}}
	if excludedFile(f, "b.c", false) || excludedFile(f, "a.txt", false) {
		t.Errorf("--exclude=b* --include=*.c: wrong decisions")
	}
	if !excludedFile([]filter{{glob: "a.txt"}}, "dir/a.txt", true) || excludedFile([]filter{{glob: "*/a.txt"}}, "a.txt", false) {
		t.Errorf("command-line suffix rule")
	}
}

func TestBrokenPipeAndCancel(t *testing.T) {
	data := strings.Repeat("a line\n", 200000)
	if code := (&cmdtest.Env{Stdin: data, PipeAfter: 100}).Run(Run, "grep", "line").Code; code != 141 {
		t.Errorf("broken pipe: exit %d, want 141", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	c := &builtins.Call{Args: []string{"grep", "-v", "zzz"}, Stdin: strings.NewReader(data), Stdout: &out, Stderr: &bytes.Buffer{}, Dir: "/"}
	if code := Run(ctx, c); code == 0 || out.Len() == len(data) {
		t.Errorf("cancelled grep ran to the end (exit %d)", code)
	}
}
