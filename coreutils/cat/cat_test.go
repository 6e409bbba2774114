package cat

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestCat(t *testing.T) {
	files := map[string]string{"a": "x\ny\n", "b": "tail", "dir/": ""}
	tests := []struct {
		name  string
		stdin string
		args  []string
		out   string
		err   string
		code  int
	}{
		{"plain", "", []string{"cat", "a", "b"}, "x\ny\ntail", "", 0},
		{"stdin", "in\n", []string{"cat"}, "in\n", "", 0},
		{"dash", "in\n", []string{"cat", "a", "-", "a"}, "x\ny\nin\nx\ny\n", "", 0},
		{"number", "", []string{"cat", "-n", "a", "b"}, "     1\tx\n     2\ty\n     3\ttail", "", 0},
		{"missing", "", []string{"cat", "nosuch", "a"}, "x\ny\n", "cat: nosuch: No such file or directory\n", 1},
		{"dir", "", []string{"cat", "dir"}, "", "cat: dir: Is a directory\n", 1},
		{"ends", "a\tb\r\n", []string{"cat", "-E"}, "a\tb^M$\n", "", 0},
		{"all", "a\tb\x01\x7f\x80\xff\n", []string{"cat", "-A"}, "a^Ib^A^?M-^@M-^?$\n", "", 0},
		{"badopt", "", []string{"cat", "-z"}, "", "cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n", 1},
	}
	for _, tt := range tests {
		env := cmdtest.Env{Files: files, Stdin: tt.stdin}
		r := env.Run(Run, tt.args...)
		if r.Stdout != tt.out || r.Stderr != tt.err || r.Code != tt.code {
			t.Errorf("%s: got %q %q %d, want %q %q %d", tt.name, r.Stdout, r.Stderr, r.Code, tt.out, tt.err, tt.code)
		}
	}
}

func TestCatGNU(t *testing.T) {
	files := map[string]string{
		"blank": "\n\n\na\n\n\n\nb\n\n",
		"mixed": "one\ttab\n\x00\x1b[0m\n\xc3\xa9\xe2\x82\xac\n\r\nlast",
		"tail":  "\n\nstart\n",
		"dir/":  "",
	}
	var cases []cmdtest.GNUCase
	for _, flags := range [][]string{{}, {"-n"}, {"-b"}, {"-s"}, {"-E"}, {"-T"}, {"-v"}, {"-A"}, {"-e"}, {"-t"}, {"-ns"}, {"-bs"}, {"-bn"}, {"-sE"}, {"-u"}, {"--number", "--squeeze-blank"}} {
		args := append([]string{"cat"}, flags...)
		cases = append(cases,
			cmdtest.GNUCase{Files: files, Args: append(append([]string{}, args...), "blank", "mixed", "tail")},
			cmdtest.GNUCase{Files: files, Args: append(append([]string{}, args...), "mixed", "blank", "-"), Stdin: "\n\nfrom stdin\n\n"},
		)
	}
	cases = append(cases,
		cmdtest.GNUCase{Files: files, Args: []string{"cat", "nosuch", "blank", "dir"}},
		cmdtest.GNUCase{Files: files, Args: []string{"cat", "--frob"}},
		cmdtest.GNUCase{Files: files, Args: []string{"cat", "--show"}},
		cmdtest.GNUCase{Files: files, Args: []string{"cat", "--show-a", "tail"}},
		cmdtest.GNUCase{Files: files, Args: []string{"cat", "--", "-n"}},
	)
	cmdtest.CheckGNU(t, Run, cases)
}

func TestCatInputIsOutput(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"a": "hi\n", "e": ""}}
	fsys := env.NewFS()
	out, err := fsys.OpenFile("/work/a", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	c := &builtins.Call{Args: []string{"cat", "a"}, Stdin: strings.NewReader(""), Stdout: out, Stderr: &errb, Dir: "/work", FS: fsys}
	if code := Run(context.Background(), c); code != 1 || errb.String() != "cat: a: input file is output file\n" {
		t.Errorf("got %d %q", code, errb.String())
	}
	out.Close()
	f, _ := fsys.Open("/work/a")
	b, _ := io.ReadAll(f)
	if string(b) != "hi\n" {
		t.Errorf("a = %q", b)
	}
}
