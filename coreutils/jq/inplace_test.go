package jq

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// peakMemory records what is charged, and fails past a limit.
type peakMemory struct{ cur, peak, limit int64 }

func (m *peakMemory) Grow(n int64) error {
	if m.limit > 0 && m.cur+n > m.limit {
		return builtins.ErrMemory
	}
	m.cur += n
	m.peak = max(m.peak, m.cur)
	return nil
}

func (m *peakMemory) Shrink(n int64) { m.cur -= n }

// TM-RES-006: a reduce state updated in place (not through a copy the
// state charging measures) is charged as it grows: each form charges at
// least its slots, and stops on a budget smaller than that.
func TestInPlaceReduceCharges(t *testing.T) {
	fsys := (&cmdtest.Env{}).NewFS()
	run := func(filter string, mem *peakMemory) (int, string) {
		var stderr strings.Builder
		c := &builtins.Call{Args: []string{"jq", "-n", filter}, Stdout: io.Discard, Stderr: &stderr,
			Dir: "/work", FS: fsys, Memory: mem}
		return Run(context.Background(), c), stderr.String()
	}
	for _, tc := range []struct {
		filter string
		min    int64 // bytes the state holds at the least
	}{
		{`reduce range(20000) as $i ({}; .["k\($i)"] = $i) | length`, 20000 * 48},
		{`reduce range(20000) as $i ({}; .["k\($i)"] += $i) | length`, 20000 * 48},
		{`reduce range(20000) as $i ({}; setpath(["k\($i)"]; $i)) | length`, 20000 * 48},
		{`reduce range(20000) as $i ({}; . + {"k\($i)": $i}) | length`, 20000 * 48},
		{`reduce range(20000) as $i ({}; .["k\($i % 10)"] += [$i]) | length`, 20000 * 16},
		{`reduce range(20000) as $i ([]; . + [$i]) | length`, 20000 * 16},
		{`reduce range(20000) as $i ({}; .a["k\($i)"] = "abcdefgh") | length`, 20000 * 64},
	} {
		mem := &peakMemory{}
		if code, stderr := run(tc.filter, mem); code != 0 {
			t.Fatalf("%s: status %d %q", tc.filter, code, stderr)
		}
		if mem.peak < tc.min {
			t.Errorf("%s: charged %d bytes at the peak, want at least %d", tc.filter, mem.peak, tc.min)
		}
		code, stderr := run(tc.filter, &peakMemory{limit: tc.min / 2})
		if code == 0 || !strings.Contains(stderr, "memory exhausted") {
			t.Errorf("%s on a budget of %d: status %d %q, want memory exhausted", tc.filter, tc.min/2, code, stderr)
		}
	}
}

// The in-place forms give jq's results where the state, or part of it,
// is also held elsewhere (the conformance cases check them against jq).
func TestInPlaceKeepsSharedValues(t *testing.T) {
	e := cmdtest.Env{Stdin: `{"a":[1],"b":{"c":1}}`}
	for _, tc := range []struct{ filter, want string }{
		{`. as $in | [reduce range(3) as $i (.; .a += [$i] | .b.d += 1), $in]`,
			`[{"a":[1,0,1,2],"b":{"c":1,"d":3}},{"a":[1],"b":{"c":1}}]`},
		{`def f: reduce range(2) as $i (.; .a += [$i]); f as $x | [$x, f, ($x | f), $x]`,
			`[{"a":[1,0,1],"b":{"c":1}},{"a":[1,0,1],"b":{"c":1}},{"a":[1,0,1,0,1],"b":{"c":1}},{"a":[1,0,1],"b":{"c":1}}]`},
		{`reduce range(3) as $i ({}; .["k\($i)"] = .)`, `{"k0":{},"k1":{"k0":{}},"k2":{"k0":{},"k1":{"k0":{}}}}`},
		{`reduce range(2) as $i ({}; .x += [$i] | .y = .x) | .x += [9]`, `{"x":[0,1,9],"y":[0,1]}`},
		{`reduce range(3) as $i ({}; .x += [$i] | .y = .x | .y += [7])`, `{"x":[0,1,2],"y":[0,1,2,7]}`},
		{`[foreach range(3) as $i ({}; .["k\($i)"] = $i)]`, `[{"k0":0},{"k0":0,"k1":1},{"k0":0,"k1":1,"k2":2}]`},
	} {
		r := e.Run(Run, "jq", "-c", tc.filter)
		if got := strings.TrimSuffix(r.Stdout, "\n"); got != tc.want || r.Code != 0 {
			t.Errorf("%s: got %q (%d %q), want %q", tc.filter, got, r.Code, r.Stderr, tc.want)
		}
	}
}
