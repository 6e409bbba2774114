package sleep

import (
	"context"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
)

func TestSleep(t *testing.T) {
	start := time.Now()
	r := (&cmdtest.Env{}).Run(Run, "sleep", "0.02", ".01s", "0x1p-7")
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("%+v", r)
	}
	if d := time.Since(start); d < 35*time.Millisecond {
		t.Errorf("slept %v, want >= 37ms", d)
	}
	for _, tc := range []struct {
		args   []string
		errOut string
	}{
		{nil, "sleep: missing operand\nTry 'sleep --help' for more information.\n"},
		{[]string{"x"}, "sleep: invalid time interval ‘x’\nTry 'sleep --help' for more information.\n"},
		{[]string{"1x", "2y"}, "sleep: invalid time interval ‘1x’\nsleep: invalid time interval ‘2y’\nTry 'sleep --help' for more information.\n"},
		{[]string{"-1"}, "sleep: invalid option -- '1'\nTry 'sleep --help' for more information.\n"},
		{[]string{"--", "-1"}, "sleep: invalid time interval ‘-1’\nTry 'sleep --help' for more information.\n"},
		{[]string{"nan"}, "sleep: invalid time interval ‘nan’\nTry 'sleep --help' for more information.\n"},
	} {
		r := (&cmdtest.Env{}).Run(Run, append([]string{"sleep"}, tc.args...)...)
		if r.Code != 1 || r.Stderr != tc.errOut {
			t.Errorf("sleep %q: code %d stderr %q", tc.args, r.Code, r.Stderr)
		}
	}
}

func TestSleepCancel(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel(&procutil.Signal{Num: 2, Name: "INT"}) }()
	start := time.Now()
	if code := Wait(ctx, 1e9); code != 130 {
		t.Errorf("code %d, want 130", code)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("did not return promptly")
	}
}
