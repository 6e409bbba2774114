package timeout

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/sleep"
)

func testExec(ctx context.Context, c *builtins.Call) int {
	switch c.Args[0] {
	case "sleep":
		return sleep.Run(ctx, c)
	case "stubborn":
		// ignores cancellation for a while, then exits 0
		time.Sleep(300 * time.Millisecond)
		return 0
	case "exit":
		var n int
		fmt.Sscan(c.Args[1], &n)
		return n
	case "echo":
		fmt.Fprintln(c.Stdout, strings.Join(c.Args[1:], " "))
		return 0
	}
	return 127
}

func TestTimeout(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		out    string
		errOut string
		code   int
	}{
		{[]string{"1", "echo", "hi"}, "hi\n", "", 0},
		{[]string{"0", "exit", "3"}, "", "", 3},
		{[]string{"0.05", "sleep", "10"}, "", "", 124},
		{[]string{"--preserve-status", "0.05", "sleep", "10"}, "", "", 143},
		{[]string{"-s", "INT", "--preserve-status", "0.05", "sleep", "10"}, "", "", 130},
		{[]string{"-v", "0.05", "sleep", "10"}, "", "timeout: sending signal TERM to command ‘sleep’\n", 124},
		{[]string{"-s", "KILL", "0.05", "sleep", "10"}, "", "", 137},
		{[]string{"-s", "0", "0.05", "sleep", "0.1"}, "", "", 124},
		{[]string{"--preserve-status", "0.05", "stubborn"}, "", "", 0},
		{[]string{"-k", "0.05", "-v", "0.05", "stubborn"}, "", "timeout: sending signal TERM to command ‘stubborn’\ntimeout: sending signal KILL to command ‘stubborn’\n", 137},
		{[]string{"1", "nosuch"}, "", "timeout: failed to run command ‘nosuch’: No such file or directory\n", 127},
		{nil, "", "Try 'timeout --help' for more information.\n", 125},
		{[]string{"1"}, "", "Try 'timeout --help' for more information.\n", 125},
		{[]string{"x", "echo"}, "", "timeout: invalid time interval ‘x’\nTry 'timeout --help' for more information.\n", 125},
		{[]string{"-s", "FOO", "1", "echo"}, "", "timeout: ‘FOO’: invalid signal\nTry 'timeout --help' for more information.\n", 125},
		{[]string{"-1", "echo"}, "", "timeout: invalid option -- '1'\nTry 'timeout --help' for more information.\n", 125},
	} {
		e := cmdtest.Env{Exec: testExec}
		start := time.Now()
		r := e.Run(Run, append([]string{"timeout"}, tc.args...)...)
		if r.Stdout != tc.out || r.Stderr != tc.errOut || r.Code != tc.code {
			t.Errorf("timeout %q:\ngot  %q %q %d\nwant %q %q %d", tc.args, r.Stdout, r.Stderr, r.Code, tc.out, tc.errOut, tc.code)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("timeout %q took %v", tc.args, d)
		}
	}
}

func TestCancelCause(t *testing.T) {
	var cause error
	exec := func(ctx context.Context, c *builtins.Call) int {
		<-ctx.Done()
		cause = context.Cause(ctx)
		return procutil.CancelStatus(ctx)
	}
	r := (&cmdtest.Env{Exec: exec}).Run(Run, "timeout", "-s", "HUP", "--preserve-status", "0.02", "wait")
	if r.Code != 129 {
		t.Errorf("code %d, want 129", r.Code)
	}
	if s, ok := cause.(*procutil.Signal); !ok || s.Num != 1 {
		t.Errorf("cause %v", cause)
	}
}
