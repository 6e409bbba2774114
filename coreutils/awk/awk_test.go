package awk

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/vfs"
)

// fakeShell stands in for the sandbox's sh: it records each command and
// answers "ran:CMD" plus its standard input upper-cased, with status 3.
type fakeShell struct {
	mu    sync.Mutex
	calls []string
}

func (f *fakeShell) exec(ctx context.Context, c *builtins.Call) int {
	f.mu.Lock()
	f.calls = append(f.calls, strings.Join(c.Args, " "))
	f.mu.Unlock()
	if len(c.Args) != 3 || c.Args[0] != "sh" || c.Args[1] != "-c" {
		return 127
	}
	in := ""
	if strings.HasPrefix(c.Args[2], "read") {
		b, _ := io.ReadAll(c.Stdin)
		in = strings.ToUpper(string(b))
	}
	io.WriteString(c.Stdout, "ran:"+c.Args[2]+"\n"+in)
	return 3
}

func TestCommandsRunInSandboxShell(t *testing.T) {
	sh := &fakeShell{}
	e := cmdtest.Env{Exec: sh.exec}
	r := e.Run(Run, "awk", `BEGIN {
		print "before"
		st = system("one")
		print "system:", st
		while (("two" | getline line) > 0) print "got", line
		print "close:", close("two")
		print "abc" | "read-three"
		print "def" | "read-three"
		print "close3:", close("read-three")
		"two" | getline x; print "again", x
		print "z" | "read-four"
	}`)
	want := "before\nran:one\nsystem: 3\ngot ran:two\nclose: 3\nran:read-three\nABC\nDEF\nclose3: 3\nagain ran:two\nran:read-four\nZ\n"
	if r.Stdout != want || r.Code != 0 || r.Stderr != "" {
		t.Fatalf("got code %d stdout %q stderr %q\nwant %q", r.Code, r.Stdout, r.Stderr, want)
	}
	wantCalls := []string{"sh -c one", "sh -c two", "sh -c read-three", "sh -c two", "sh -c read-four"}
	if strings.Join(sh.calls, "|") != strings.Join(wantCalls, "|") {
		t.Fatalf("calls %q, want %q", sh.calls, wantCalls)
	}
}

func TestFilesStayInSandbox(t *testing.T) {
	e := cmdtest.Env{Files: map[string]string{"in.txt": "1\n2\n"}}
	r := e.Run(Run, "awk", `{ print $1 * 10 > "out/x.txt"; print "log" >> "/work/log.txt" } END { close("out/x.txt"); print (getline l < "/etc/passwd") }`, "in.txt")
	if r.Code != 2 || !strings.Contains(r.Stderr, "cannot redirect to `out/x.txt': No such file or directory") {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
	e.Files["out/"] = ""
	r = e.Run(Run, "awk", `{ print $1 * 10 > "out/x.txt"; print "log" >> "/work/log.txt" } END { close("out/x.txt"); print (getline l < "/etc/hostname") }`, "in.txt")
	if r.Code != 0 || r.Stdout != "-1\n" {
		t.Fatalf("code %d stdout %q stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	got, _ := vfs.ReadFile(r.FS, "/work/out/x.txt")
	if string(got) != "10\n20\n" {
		t.Fatalf("out/x.txt = %q", got)
	}
	got, _ = vfs.ReadFile(r.FS, "/work/log.txt")
	if string(got) != "log\nlog\n" {
		t.Fatalf("log.txt = %q", got)
	}
}

func TestEnvironIsSandboxEnv(t *testing.T) {
	t.Setenv("BASHBOX_HOST_SECRET", "leak")
	e := cmdtest.Env{Env: []string{"ONLY=this", "HOME=/home/user"}}
	r := e.Run(Run, "awk", `BEGIN { for (k in ENVIRON) n++; print n, ENVIRON["ONLY"], "[" ENVIRON["BASHBOX_HOST_SECRET"] "]" }`)
	if r.Stdout != "2 this []\n" {
		t.Fatalf("got %q %q", r.Stdout, r.Stderr)
	}
}

func TestOptionsAndHelp(t *testing.T) {
	e := cmdtest.Env{Stdin: "a:b\n"}
	for _, tc := range []struct {
		args []string
		out  string
		code int
	}{
		{[]string{"awk", "--version"}, "awk (bashbox) " + builtins.ReleaseVersion + "\n", 0},
		{[]string{"gawk", "--version"}, "gawk (bashbox) " + builtins.ReleaseVersion + "\n", 0},
		{[]string{"awk", "-F:", "{print $2}"}, "b\n", 0},
		{[]string{"awk", "--field-separator=:", "{print $1}"}, "a\n", 0},
		{[]string{"awk", "--assign", "x=5", "-e", "BEGIN{print x}"}, "5\n", 0},
		{[]string{"awk", "-vx=6", "BEGIN{print x}"}, "6\n", 0},
		{[]string{"mawk", "--frob"}, "", 1},
		{[]string{"awk"}, "", 1},
	} {
		r := e.Run(Run, tc.args...)
		if r.Stdout != tc.out || r.Code != tc.code {
			t.Errorf("%q: code %d stdout %q stderr %q", tc.args, r.Code, r.Stdout, r.Stderr)
		}
	}
	r := e.Run(Run, "awk", "--help")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...\n") {
		t.Errorf("--help: %d %q", r.Code, r.Stdout)
	}
	r = e.Run(Run, "awk", "--frob")
	if !strings.HasPrefix(r.Stderr, "awk: unrecognized option '--frob'\nUsage: awk ") {
		t.Errorf("--frob: %q", r.Stderr)
	}
}

// goawk runs without the call's context (see Run): the generated memory
// check stops a cancelled run, so every kind of step must reach it.
func TestCancelStopsLoop(t *testing.T) {
	for _, prog := range []string{
		"BEGIN { while (1) x++ }",
		"{ for (;;) a[x++ % 10] = $0 }",
		"function f(n) { return n > 0 ? f(n - 1) : f(100) } { f(100) }",
		"{ a[NR] } END { while (1) for (k in a) n++ }",
		"BEGIN { do ; while (1) }",
	} {
		(&cmdtest.Env{Stdin: "a\nb\n"}).RunCancelled(t, 200*time.Millisecond, Run, "awk", prog)
	}
}

// Steps that take long each (index() over 20 MB, milliseconds a step)
// bring the check closer: the run stops soon after its deadline, not
// 1024 slow steps later (3 s without the race detector; now tens of
// milliseconds, the bound leaving room for a loaded machine). The
// deadline leaves time to build the string under the race detector.
func TestCancelStopsSlowSteps(t *testing.T) {
	const deadline = 4 * time.Second
	start := time.Now()
	r := (&cmdtest.Env{}).RunCancelled(t, deadline, Run, "awk",
		`BEGIN { s = "aaaaaaaaaa"; while (length(s) < 2e7) s = s s; while (1) n += index(s, "x") }`)
	if late := time.Since(start) - deadline; r.Code != 130 || late > 1500*time.Millisecond {
		t.Errorf("exit %d, %v after the deadline (stderr %q)", r.Code, late, r.Stderr)
	}
}

func TestBrokenPipe(t *testing.T) {
	r := (&cmdtest.Env{PipeAfter: 1}).Run(Run, "awk", "BEGIN { for (i = 0; i < 100000; i++) print i }")
	if code := r.Code; code != 141 {
		t.Fatalf("code %d, want 141", code)
	}
}

// keepCR must give the same bytes however its input and its caller's
// buffer are cut: each \r before \n, and a \r ending the input, doubled.
func TestKeepCRChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab\r\n")
	for round := 0; round < 2000; round++ {
		in := make([]byte, rng.IntN(40))
		for i := range in {
			in[i] = alphabet[rng.IntN(len(alphabet))]
		}
		want := strings.ReplaceAll(string(in), "\r\n", "\r\r\n")
		if strings.HasSuffix(want, "\r") {
			want += "\r"
		}
		var src io.Reader = bytes.NewReader(in)
		switch round % 3 {
		case 1:
			src = iotest.OneByteReader(src)
		case 2:
			src = iotest.HalfReader(src)
		}
		k := &keepCR{r: src}
		var got []byte
		buf := make([]byte, 1+rng.IntN(16))
		for {
			n, err := k.Read(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if string(got) != want {
			t.Fatalf("input %q: got %q, want %q", in, got, want)
		}
	}
}
