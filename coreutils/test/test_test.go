package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestTest(t *testing.T) {
	files := map[string]string{"f": "data", "e": "", "d/": "", "l": "->f", "dang": "->nosuch"}
	for _, tc := range []struct {
		args   []string
		code   int
		errOut string
	}{
		{nil, 1, ""},
		{[]string{""}, 1, ""},
		{[]string{"x"}, 0, ""},
		{[]string{"-n"}, 0, ""},
		{[]string{"--help"}, 0, ""},
		{[]string{"!"}, 0, ""},
		{[]string{"-f", "f"}, 0, ""},
		{[]string{"-f", "d"}, 1, ""},
		{[]string{"-d", "d"}, 0, ""},
		{[]string{"-e", "nosuch"}, 1, ""},
		{[]string{"-e", "dang"}, 1, ""},
		{[]string{"-h", "dang"}, 0, ""},
		{[]string{"-L", "l"}, 0, ""},
		{[]string{"-L", "f"}, 1, ""},
		{[]string{"-s", "f"}, 0, ""},
		{[]string{"-s", "e"}, 1, ""},
		{[]string{"-r", "f"}, 0, ""},
		{[]string{"-x", "f"}, 1, ""},
		{[]string{"-x", "d"}, 0, ""},
		{[]string{"-p", "f"}, 1, ""},
		{[]string{"-t", "1"}, 1, ""},
		{[]string{"-t"}, 0, ""},
		{[]string{"-z", ""}, 0, ""},
		{[]string{"-z", "a"}, 1, ""},
		{[]string{"f", "-ef", "l"}, 0, ""},
		{[]string{"f", "-ef", "e"}, 1, ""},
		{[]string{"nosuch", "-ot", "f"}, 0, ""},
		{[]string{"f", "-nt", "nosuch"}, 0, ""},
		{[]string{"a", "=", "a"}, 0, ""},
		{[]string{"a", "==", "b"}, 1, ""},
		{[]string{"a", "!=", "b"}, 0, ""},
		{[]string{"a", "<", "b"}, 0, ""},
		{[]string{"a", ">", "b"}, 1, ""},
		{[]string{"10", "-gt", "9"}, 0, ""},
		{[]string{" 3 ", "-eq", "+3"}, 0, ""},
		{[]string{"-1", "-lt", "0"}, 0, ""},
		{[]string{"a", "-eq", "1"}, 2, "test: invalid integer ‘a’\n"},
		{[]string{"", "-eq", "1"}, 2, "test: invalid integer ‘’\n"},
		{[]string{"99999999999999999999", "-gt", "1"}, 2, "test: invalid integer ‘99999999999999999999’\n"},
		{[]string{"1", "-eq"}, 2, "test: missing argument after ‘-eq’\n"},
		{[]string{"a", "b", "c"}, 2, "test: ‘b’: binary operator expected\n"},
		{[]string{"-q", "a"}, 2, "test: ‘-q’: unary operator expected\n"},
		{[]string{"(", "a"}, 2, "test: missing argument after ‘a’\n"},
		{[]string{"(", "a", "-a", "b"}, 2, "test: ‘)’ expected\n"},
		{[]string{"(", "a", "b", ")", ")"}, 2, "test: ‘)’ expected, found ‘b’\n"},
		{[]string{"a", "=", "b", "=", "c"}, 2, "test: extra argument ‘=’\n"},
		{[]string{"1", "-eq", "1", "-a"}, 2, "test: missing argument after ‘-a’\n"},
		{[]string{"!", "a", "=", "a", "-o", "a"}, 0, ""},
		{[]string{"a", "=", "a", "-a", "!", "b", "=", "c", "-o", "d"}, 0, ""},
		{[]string{"(", "-f", "f", ")", "-a", "(", "-d", "d", ")"}, 0, ""},
		{[]string{"-f", "nosuch", "-o", "-d", "d"}, 0, ""},
		{[]string{"", "-o", "", "-a", "a"}, 1, ""},
		{[]string{"!", "=", "="}, 1, ""},
		{[]string{"-v", "HOME"}, 2, "test: ‘-v’: unary operator expected\n"},
		{[]string{"-q", "x", "-a", "y"}, 2, "test: ‘-q’: unary operator expected\n"},
	} {
		r := (&cmdtest.Env{Files: files}).Run(Run, append([]string{"test"}, tc.args...)...)
		if r.Code != tc.code || r.Stderr != tc.errOut || r.Stdout != "" {
			t.Errorf("test %q: code %d stderr %q stdout %q; want %d %q", tc.args, r.Code, r.Stderr, r.Stdout, tc.code, tc.errOut)
		}
	}
}

func TestBracket(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		out    string
		errOut string
	}{
		{[]string{"1", "-eq", "1", "]"}, 0, "", ""},
		{[]string{"]"}, 1, "", ""},
		{[]string{"1", "-eq", "1"}, 2, "", "[: missing ‘]’\n"},
		{nil, 2, "", "[: missing ‘]’\n"},
		{[]string{"--version"}, 0, "[ (bashbox) 0.1.0\n", ""},
		{[]string{"--help", "]"}, 0, "", ""},
	} {
		r := (&cmdtest.Env{}).Run(Run, append([]string{"["}, tc.args...)...)
		if r.Code != tc.code || r.Stderr != tc.errOut || r.Stdout != tc.out {
			t.Errorf("[ %q: %+v", tc.args, r)
		}
	}
	// Reached by a path, it is still [ and wants its bracket.
	if r := (&cmdtest.Env{}).Run(Run, "/usr/bin/[", "1", "=", "1", "]"); r.Code != 0 || r.Stderr != "" {
		t.Errorf("/usr/bin/[ 1 = 1 ]: %+v", r)
	}
	if r := (&cmdtest.Env{}).Run(Run, "/bin/[", "1"); r.Code != 2 || r.Stderr != "/bin/[: missing ‘]’\n" {
		t.Errorf("/bin/[ 1: %+v", r)
	}
	r := (&cmdtest.Env{}).Run(Run, "[", "--help")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "Usage: test EXPRESSION\n") {
		t.Errorf("--help: %+v", r)
	}
}

func TestNewer(t *testing.T) {
	e := cmdtest.Env{Files: map[string]string{"old": "", "new": ""}}
	fsys := e.NewFS()
	past := time.Now().Add(-time.Hour)
	fsys.Chtimes("/work/old", past, past)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"new", "-nt", "old"}, 0},
		{[]string{"old", "-nt", "new"}, 1},
		{[]string{"old", "-ot", "new"}, 0},
	} {
		r := e.RunIn(fsys, Run, append([]string{"test"}, tc.args...)...)
		if r.Code != tc.code {
			t.Errorf("test %q = %d", tc.args, r.Code)
		}
	}
}

// TestAgainstBash compares statuses with bash's test builtin.
func TestAgainstBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	exprs := [][]string{
		{"-f", "f", "-a", "!", "-d", "f"}, {"(", "!", ")"}, {"!", "!", "!", "x"}, {"-z", "-n"},
		{"x", "-a", "", "-o", "y"}, {"!", "", "-a", "x"}, {"(", "x", ")", "=", "x"}, {"-n", "=", "-n"},
		{"=", "=", "="}, {"-a", "-a", "-a"}, {"-o", "=", "-o"}, {"!", "-o", "x"},
	}
	for _, args := range exprs {
		cmd := exec.Command("bash", append([]string{"-c", `test "$@"`, "test"}, args...)...)
		cmd.Dir = dir
		out, _ := cmd.CombinedOutput()
		want := cmd.ProcessState.ExitCode()
		files := map[string]string{"f": "x", "d/": ""}
		r := (&cmdtest.Env{Files: files}).Run(Run, append([]string{"test"}, args...)...)
		if r.Code != want {
			t.Errorf("test %q: %d, bash %d (%s)", args, r.Code, want, out)
		}
	}
}
