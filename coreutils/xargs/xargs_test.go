package xargs

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// testExec runs the few commands the tests need.
func testExec(ctx context.Context, c *builtins.Call) int {
	switch c.Args[0] {
	case "echo":
		fmt.Fprintln(c.Stdout, strings.Join(c.Args[1:], " "))
		return 0
	case "args":
		// one line per argument, bracketed
		for _, a := range c.Args[1:] {
			fmt.Fprintf(c.Stdout, "[%s]", a)
		}
		fmt.Fprintln(c.Stdout)
		return 0
	case "exit":
		n, _ := strconv.Atoi(c.Args[1])
		fmt.Fprintln(c.Stdout, strings.Join(c.Args[2:], " "))
		return n
	case "cat":
		io.Copy(c.Stdout, c.Stdin)
		return 0
	case "slot":
		fmt.Fprintf(c.Stdout, "%s=%s\n", c.Args[1], c.Getenv(c.Args[1]))
		return 0
	case "sleep":
		time.Sleep(20 * time.Millisecond)
		fmt.Fprintln(c.Stdout, strings.Join(c.Args[1:], " "))
		return 0
	}
	return 127
}

func run(stdin string, args ...string) cmdtest.Result {
	e := cmdtest.Env{Stdin: stdin, Exec: testExec, Files: map[string]string{"list": "x y\nz\n"}}
	return e.Run(Run, append([]string{"xargs"}, args...)...)
}

func TestXargs(t *testing.T) {
	tests := []struct {
		name   string
		stdin  string
		args   []string
		out    string
		errOut string
		code   int
	}{
		{"default echo", "a  b\nc d\n", nil, "a b c d\n", "", 0},
		{"empty input runs once", "", nil, "\n", "", 0},
		{"-r", "", []string{"-r", "echo"}, "", "", 0},
		{"blank lines only", "\n\n  \n", []string{"echo", "x"}, "x\n", "", 0},
		{"-n1", "a b c\n", []string{"-n1", "echo"}, "a\nb\nc\n", "", 0},
		{"-n2", "a b c\n", []string{"-n", "2", "echo"}, "a b\nc\n", "", 0},
		{"-L1", "a b\nc\n\nd\n", []string{"-L1", "echo"}, "a b\nc\nd\n", "", 0},
		{"-L continuation", "a  b \nc d\n\n  e\n", []string{"-L", "1", "echo"}, "a b c d\ne\n", "", 0},
		{"-l", "a\nb\n", []string{"-l", "echo"}, "a\nb\n", "", 0},
		{"quotes", "\"a  b\" c\\ d 'e\"f' g\n", []string{"-n1", "args"}, "[a  b]\n[c d]\n[e\"f]\n[g]\n", "", 0},
		{"empty quoted arg", "''\n", []string{"args"}, "[]\n", "", 0},
		{"-I", "  a  b \nc\n\n", []string{"-I", "{}", "args", "<{}>", "{}{}"}, "[<a  b >][a  b a  b ]\n[<c>][cc]\n", "", 0},
		{"-i", "x\n", []string{"-i", "echo", "{}-{}"}, "x-x\n", "", 0},
		{"-I empty input", "", []string{"-I{}", "echo", "{}"}, "", "", 0},
		{"-0", "a b\x00c\x00", []string{"-0", "args"}, "[a b][c]\n", "", 0},
		{"-d", "a,b,,c", []string{"-d,", "args"}, "[a][b][][c]\n", "", 0},
		{"-d newline", "a b\nc\n", []string{"-d", "\\n", "args"}, "[a b][c]\n", "", 0},
		{"-d octal", "aAb", []string{"-d", "\\101", "args"}, "[a][b]\n", "", 0},
		{"-E", "a b _ c\nd\n", []string{"-E", "_", "echo"}, "a b\n", "", 0},
		{"-E first", "_ a\n", []string{"-E_", "echo"}, "\n", "", 0},
		{"-e no arg", "a _ b\n", []string{"-e", "echo"}, "a _ b\n", "", 0},
		{"-0 -E warns", "a\x00", []string{"-0", "-E", "x", "echo"}, "a\n",
			"xargs: warning: the -E option has no effect if -0 or -d is used.\n\n", 0},
		{"unmatched double", "a \"b\nc\" d\n", []string{"echo"}, "a\n",
			"xargs: unmatched double quote; by default quotes are special to xargs unless you use the -0 option\n", 1},
		{"unmatched single", "a 'b", []string{"echo"}, "a\n",
			"xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n", 1},
		{"trailing backslash", "a b\\", nil, "a b\n", "", 0},
		{"NUL warning", "a\x00b c\n", nil, "a c\n",
			"xargs: WARNING: a NUL character occurred in the input.  It cannot be passed through in the argument list.  Did you mean to use the --null option?\n", 0},
		{"-t", "a b\n", []string{"-t", "echo", "x y"}, "x y a b\n", "echo 'x y' a b\n", 0},
		{"-t empty", "", []string{"-t"}, "\n", "echo\n", 0},
		{"-s splits", "a b c d\n", []string{"-s", "12", "echo"}, "a b c\nd\n", "", 0},
		{"-s too small", "a\n", []string{"-s", "5", "echo"}, "", "xargs: argument line too long\n", 1},
		{"-s cannot fit", "a\n", []string{"-s", "4", "echo"}, "", "xargs: cannot fit single argument within argument list size limit\n", 1},
		{"-s 0", "a\n", []string{"-s", "0", "echo"}, "",
			"xargs: value 0 for -s option should be >= 1\nxargs: cannot fit single argument within argument list size limit\n", 1},
		{"-x -n", "a b c\n", []string{"-x", "-n2", "-s", "8", "echo"}, "", "xargs: argument list too long\n", 1},
		{"-I too long", "abc\n", []string{"-I{}", "-s", "10", "echo", "{}", "{}"}, "", "xargs: argument list too long\n", 1},
		{"exit 1-125", "a\nb\n", []string{"-n1", "exit", "3"}, "a\nb\n", "", 123},
		{"exit 255", "a\nb\n", []string{"-n1", "exit", "255"}, "a\n", "xargs: exit: exited with status 255; aborting\n", 124},
		{"signal", "a\nb\n", []string{"-n1", "exit", "141"}, "a\n", "xargs: exit: terminated by signal 13\n", 125},
		{"not found", "a\n", []string{"nosuch"}, "", "xargs: nosuch: No such file or directory\n", 127},
		{"child stdin is empty", "a\n", []string{"cat"}, "", "", 0},
		{"-a file", "in\n", []string{"-a", "list", "cat"}, "in\n", "", 0},
		{"-a args", "", []string{"-a", "list", "echo"}, "x y z\n", "", 0},
		{"-a missing", "", []string{"-a", "nope"}, "", "xargs: Cannot open input file ‘nope’: No such file or directory\n", 1},
		{"slot var", "a\n", []string{"--process-slot-var=S", "slot", "S"}, "S=0\n", "", 0},
		{"-p without tty", "a\n", []string{"-p", "echo"}, "", "echo axargs: failed to open /dev/tty for reading: No such device or address\n", 1},
		{"-n then -L warns", "a b\nc\n", []string{"-n1", "-L1", "echo"}, "a b\nc\n",
			"xargs: warning: options --max-args and -L are mutually exclusive, ignoring previous --max-args value\n", 0},
		{"-I then -n2 warns", "a b\n", []string{"-I{}", "-n2", "echo", "{}"}, "{} a b\n",
			"xargs: warning: options --replace and --max-args/-n are mutually exclusive, ignoring previous --replace value\n", 0},
		{"-i -n1 fine", "a b\n", []string{"-i", "-n1", "echo", "{}"}, "a b\n", "", 0},
		{"bad -n", "", []string{"-n", "x"}, "", "xargs: invalid number \"x\" for -n option\nTry 'xargs --help' for more information.\n", 1},
		{"-n 0", "", []string{"-n", "0"}, "", "xargs: value 0 for -n option should be >= 1\nTry 'xargs --help' for more information.\n", 1},
		{"-P -1", "", []string{"-P", "-1"}, "", "xargs: value -1 for -P option should be >= 0\nTry 'xargs --help' for more information.\n", 1},
		{"bad delimiter", "", []string{"-d", "ab"}, "",
			"xargs: Invalid input delimiter specification ab: the delimiter must be either a single character or an escape sequence starting with \\.\n", 1},
		{"bad escape", "", []string{"-d", "\\q"}, "", "xargs: Invalid escape sequence \\q in input delimiter specification.\n", 1},
		{"bad option", "", []string{"--frob"}, "", "xargs: unrecognized option '--frob'\nTry 'xargs --help' for more information.\n", 1},
		{"missing arg", "", []string{"-I"}, "", "xargs: option requires an argument -- 'I'\nTry 'xargs --help' for more information.\n", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(tc.stdin, tc.args...)
			if r.Stdout != tc.out || r.Stderr != tc.errOut || r.Code != tc.code {
				t.Errorf("xargs %q <<< %q:\ngot  out=%q err=%q code=%d\nwant out=%q err=%q code=%d",
					tc.args, tc.stdin, r.Stdout, r.Stderr, r.Code, tc.out, tc.errOut, tc.code)
			}
		})
	}
}

func TestParallel(t *testing.T) {
	var input strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&input, "%d\n", i)
	}
	start := time.Now()
	r := run(input.String(), "-P", "4", "-n", "1", "--process-slot-var", "SLOT", "sleep")
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if len(lines) != 40 {
		t.Fatalf("got %d lines: %q", len(lines), r.Stdout)
	}
	// 40 sleeps of 20ms on 4 slots take about 200ms, serially 800ms.
	if d := time.Since(start); d > 700*time.Millisecond {
		t.Errorf("-P 4 took %v; not parallel?", d)
	}
}

func TestParallelSlots(t *testing.T) {
	var running, maxRunning atomic.Int32
	exec := func(ctx context.Context, c *builtins.Call) int {
		n := running.Add(1)
		for {
			m := maxRunning.Load()
			if n <= m || maxRunning.CompareAndSwap(m, n) {
				break
			}
		}
		slot, _ := strconv.Atoi(c.Getenv("SLOT"))
		if slot < 0 || slot >= 3 {
			t.Errorf("slot %d out of range", slot)
		}
		time.Sleep(5 * time.Millisecond)
		fmt.Fprintf(c.Stdout, "%s\n", c.Args[1])
		running.Add(-1)
		return 0
	}
	e := cmdtest.Env{Stdin: strings.Repeat("x\n", 30), Exec: exec}
	r := e.Run(Run, "xargs", "-P3", "-n1", "--process-slot-var=SLOT", "cmd")
	if r.Code != 0 || strings.Count(r.Stdout, "x\n") != 30 {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	if m := maxRunning.Load(); m > 3 || m < 2 {
		t.Errorf("max running %d, want 2..3", m)
	}
}

func TestParallelFailure(t *testing.T) {
	r := run("a\nb\nc\nd\n", "-P", "2", "-n1", "exit", "3")
	if r.Code != 123 {
		t.Errorf("code %d, want 123", r.Code)
	}
}

// TestAgainstGNU compares with the real xargs running /bin/echo.
func TestAgainstGNU(t *testing.T) {
	if _, err := exec.LookPath("xargs"); err != nil {
		t.Skip("no GNU xargs")
	}
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{"a b c d e f\n", []string{"-n", "4"}},
		{"a b\n c \n\nd e\n", []string{"-L", "2"}},
		{"one two\nthree\n", []string{"-I", "X", "echo", "[X]"}},
		{"x y z\n", []string{"-s", "11"}},
		{"'a b' \"c d\" e\\ f\n", []string{"-n", "1"}},
		{"a\nb\n", []string{"-t"}},
	} {
		cmd := exec.Command("xargs", tc.args...)
		cmd.Stdin = strings.NewReader(tc.stdin)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Env = []string{"LANG=C.UTF-8", "PATH=/usr/bin:/bin"}
		cmd.Run()
		r := run(tc.stdin, tc.args...)
		if r.Stdout != out.String() || r.Stderr != errb.String() {
			t.Errorf("xargs %q: got %q %q, GNU %q %q", tc.args, r.Stdout, r.Stderr, out.String(), errb.String())
		}
	}
}
