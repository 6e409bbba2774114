package bashbox_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
)

func TestBudgets(t *testing.T) {
	cases := []struct {
		name   string
		limits bashbox.Limits
		script string
		budget string
		code   int
	}{
		{"timeout", bashbox.Limits{Timeout: 300 * time.Millisecond}, `while :; do :; done`, "timeout", 124},
		{"timeout-assignments", bashbox.Limits{Timeout: 300 * time.Millisecond}, `while :; do x=1; done`, "timeout", 124},
		{"commands", bashbox.Limits{MaxCommands: 50}, `while :; do tick; done`, "commands", 125},
		{"loop-while", bashbox.Limits{MaxLoopIterations: 1000}, `while :; do :; done`, "loop_iterations", 125},
		{"loop-for", bashbox.Limits{MaxLoopIterations: 1000}, `for ((i=0;;i++)); do :; done`, "loop_iterations", 125},
		{"loop-until", bashbox.Limits{MaxLoopIterations: 10}, `until false; do :; done`, "loop_iterations", 125},
		{"output", bashbox.Limits{MaxOutputBytes: 1000}, `while :; do echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; done`, "output", 125},
		{"memory", bashbox.Limits{MaxMemoryBytes: 1 << 20}, `x=a; while :; do x=$x$x; done`, "memory", 125},
		{"memory-cmdsubst", bashbox.Limits{MaxMemoryBytes: 1 << 20}, `x=$(while :; do echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; done)`, "memory", 125},
		{"memory-cmdsubst-pipe", bashbox.Limits{MaxMemoryBytes: 1 << 20}, `x=$(yes | head -c 5000000)`, "memory", 125},
		{"overlay-bytes", bashbox.Limits{MaxOverlayBytes: 1 << 16}, `s=0123456789abcdef; while :; do echo "$s$s$s$s" >> /tmp/big; done`, "overlay_bytes", 125},
		{"overlay-files", bashbox.Limits{MaxOverlayFiles: 20}, `i=0; while :; do : > /tmp/f$i; i=$((i+1)); done`, "overlay_files", 125},
		{"nesting-functions", bashbox.Limits{MaxNesting: 50}, `f() { f; }; f`, "nesting", 125},
		{"nesting-eval", bashbox.Limits{MaxNesting: 50}, `s='eval "$s"'; eval "$s"`, "nesting", 125},
		{"nesting-default", bashbox.Limits{}, `echo '. /tmp/s' > /tmp/s; . /tmp/s`, "nesting", 125},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := newBox(t, bashbox.Config{Limits: tc.limits, Commands: map[string]builtins.Command{"tick": tick}})
			start := time.Now()
			res := run(t, b, tc.script)
			if res.Budget == nil || res.Budget.Name != tc.budget {
				t.Fatalf("budget %+v, want %s (exit %d, stderr %q)", res.Budget, tc.budget, res.ExitCode, res.Stderr)
			}
			if res.ExitCode != tc.code {
				t.Fatalf("exit %d, want %d", res.ExitCode, tc.code)
			}
			if !strings.Contains(res.Stderr, "bashbox: budget exceeded: "+tc.budget+" (limit ") {
				t.Fatalf("stderr %q lacks the budget line", res.Stderr)
			}
			for _, internal := range []string{"context canceled", "deadline exceeded"} {
				if strings.Contains(res.Stderr, internal) {
					t.Fatalf("internal error text %q reaches the user: %q", internal, res.Stderr)
				}
			}
			// Generous bound: the limit plus a second, on a noisy machine.
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("took %v to stop", d)
			}
		})
	}
}

func TestOutputTruncationKeepsHeadAndTail(t *testing.T) {
	b := newBox(t, bashbox.Config{Limits: bashbox.Limits{MaxOutputBytes: 100}})
	res := run(t, b, `echo START; i=0; while [ $i -lt 40 ]; do echo line$i; i=$((i+1)); done; echo THE-END`)
	if !res.Truncated.Stdout || res.Truncated.Stderr {
		t.Fatalf("truncated = %+v", res.Truncated)
	}
	if !strings.HasPrefix(res.Stdout, "START\n") || !strings.HasSuffix(res.Stdout, "THE-END\n") {
		t.Fatalf("head or tail lost: %q", res.Stdout)
	}
	if !strings.Contains(res.Stdout, "[bashbox: output truncated: ") {
		t.Fatalf("no marker: %q", res.Stdout)
	}
	if res.Budget != nil || res.ExitCode != 0 {
		t.Fatalf("moderate overflow must only truncate: %+v exit %d", res.Budget, res.ExitCode)
	}
}
