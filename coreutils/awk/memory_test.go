package awk_test

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// memoryCases grow memory in ways a check every so many steps of the
// global variables alone does not see: one string that doubles (or
// triples) between two checks, strings built by functions, arrays and
// strings local to functions (owned by the frame, grown by a callee, one
// per recursion level), long input records and a getline line with no
// end.
var memoryCases = []struct{ name, script string }{
	{"concat-doubling", `awk 'BEGIN { s = "x"; while (1) s = s s }'`},
	{"concat-straight-line", `awk 'BEGIN { s = "xxxxxxxxxx"` + strings.Repeat("; s = s s", 40) + ` }'`},
	{"concat-tripling", `awk 'BEGIN { s = sprintf("%1000s", ""); while (1) s = s s s }'`},
	{"concat-of-calls", `awk 'function id(x) { return x } BEGIN { s = "x"; while (1) s = id(s) id(s) }'`},
	{"sprintf-doubling", `awk 'BEGIN { s = "x"; while (1) s = sprintf("%s%s", s, s) }'`},
	{"toupper-into-array", `awk 'BEGIN { s = sprintf("%100000s", ""); while (1) a[i++] = toupper(s) }'`},
	{"local-array", `awk 'function f(n,  loc) { while (1) loc[n++] = "abcdefghijklmnopqrstuvwxyz" } BEGIN { f(0) }'`},
	{"local-array-grown-by-callee", `awk 'function fill(a) { while (1) a[i++] = "abcdefghijklmnopqrstuvwxyz" } function f(  loc) { fill(loc) } BEGIN { f() }'`},
	{"local-scalar", `awk 'function f(s) { while (1) s = s s } BEGIN { f("x") }'`},
	{"local-array-per-level", `awk 'function f(d,  loc, i) { for (i = 0; i < 20000; i++) loc[i] = i "abcdefghijkl"; f(d + 1) } BEGIN { f(0) }'`},
	{"long-records", `yes "$(head -c 1000000 /dev/zero | tr '\0' a)" | awk '{ a[NR] = $0 }'`},
	{"getline-endless-line", `awk 'BEGIN { while ((getline line < "/dev/zero") > 0) n++ }'`},
	{"gsub-doubling", `awk 'BEGIN { s = "x"; while (1) gsub(/x/, "xx", s) }'`},
	{"gsub-regex-doubling", `awk 'BEGIN { s = "x"; while (1) gsub(/[x]/, "xx", s) }'`},
	{"record-gsub-doubling", `awk 'BEGIN { $0 = "x"; while (1) gsub(/x/, "xx") }'`},
	{"record-append-doubling", `awk 'BEGIN { $0 = "x"; while (1) $(NF + 1) = $0 }'`},
	{"record-resplit-doubling", `awk 'BEGIN { $0 = "x"; while (1) { $3 = $0; $0 = $0 } }'`},
	// The program's names cannot reach the check's own (see escape).
	{"check-counters-assigned", `awk 'BEGIN { __bb_c = -1e300; while (1) a[i++] = "abcdefghijklmnopqrstuvwxyz" }'`},
	{"check-counters-from-v", `awk -v __bb_c=-1e300 'BEGIN { while (1) a[i++] = "abcdefghijklmnopqrstuvwxyz" }'`},
	{"check-counters-from-operand", `yes | awk '{ a[NR] = $0 }' __bb_c=-1e300 -`},
	{"check-function-replaced", `awk 'function __bb_chk(x) { } function __bb_held(a, b, c) { return 1e300 } BEGIN { while (1) a[i++] = "abcdefghijklmnopqrstuvwxyz" }'`},
}

// deadlineCases are strings doubling under a memory budget too large to
// reach before the deadline: one sub or gsub on a string of many
// mebibytes must still end on the deadline. (sub(/x+/), gensub with
// groups and patterns that look behind a position run Go's regexp
// engine over the whole string at each doubling: they grow too slowly to
// end on a memory budget in a test's time, and end on the deadline.)
var deadlineCases = []struct{ name, script string }{
	{"gsub-literal", `awk 'BEGIN { s = "x"; while (1) gsub(/x/, "xx", s) }'`},
	{"gsub-regex", `awk 'BEGIN { s = "x"; while (1) gsub(/[x]/, "xx", s) }'`},
	{"gsub-word", `awk 'BEGIN { s = "x"; while (1) gsub(/\Bx|^x/, "xx", s) }'`},
	{"sub-long-match", `awk 'BEGIN { s = "x"; while (1) sub(/x+/, "&&", s) }'`},
	{"gensub", `awk 'BEGIN { s = "x"; while (1) s = gensub(/(x)/, "\\1\\1", "g", s) }'`},
	{"record-gsub", `awk 'BEGIN { $0 = "x"; while (1) gsub(/x/, "xx") }'`},
}

// TM-RES-004: a sub or gsub on a long string looks at the call's context
// while it works: each case ends on the deadline within a second.
func TestAwkLongSubStopsOnTheDeadline(t *testing.T) {
	box, err := bashbox.New(bashbox.Config{Limits: bashbox.Limits{MaxMemoryBytes: 1 << 30, Timeout: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	for _, tc := range deadlineCases {
		start := time.Now()
		res, err := box.Run(context.Background(), bashbox.Request{Script: tc.script})
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		t.Logf("%s: %v, budget %+v", tc.name, took.Round(time.Millisecond), res.Budget)
		if res.Budget == nil {
			t.Errorf("%s: ended without a budget: exit %d, stderr %q", tc.name, res.ExitCode, res.Stderr)
		}
		if took > 300*time.Millisecond+time.Second {
			t.Errorf("%s: took %v to stop", tc.name, took)
		}
	}
}

// TM-RES-006: each case ends on the call's memory budget, with the
// budget's status, in a box of this process.
func TestAwkChargesStringsAndFrames(t *testing.T) {
	for _, tc := range memoryCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			box, err := bashbox.New(bashbox.Config{Limits: bashbox.Limits{MaxMemoryBytes: 16 << 20, Timeout: 60 * time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			defer box.Close()
			res, err := box.Run(context.Background(), bashbox.Request{Script: tc.script})
			if err != nil {
				t.Fatal(err)
			}
			if res.Budget == nil || res.Budget.Name != "memory" || res.ExitCode != 125 {
				t.Fatalf("budget %+v exit %d, stderr %q", res.Budget, res.ExitCode, res.Stderr)
			}
			if strings.Contains(res.Stderr, "internal error") {
				t.Errorf("stderr %q", res.Stderr)
			}
		})
	}
}

// TM-RES-006: through `bashbox run` in its own process (built without
// the race detector, whose shadow memory would hide the footprint), each
// case ends on a 16 MiB budget within 3 s all told (start-up included),
// with a peak RSS under the budget plus 64 MiB.
func TestAwkMemoryCasesStayNearTheBudget(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "bashbox")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/bashbox/bashbox/cmd/bashbox").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const budget = 16 << 20
	for _, tc := range memoryCases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, "run", "--max-memory", strconv.Itoa(budget), "--timeout", "30s", "-c", tc.script)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			code, rss, took := cmdtest.RunPeak(t, cmd)
			t.Logf("exit %d in %v, peak RSS %d MiB", code, took.Round(time.Millisecond), rss>>20)
			if code != 125 || !strings.Contains(stderr.String(), "bashbox: budget exceeded: memory ") {
				t.Errorf("exit %d, stderr %q; want 125 and the memory budget line", code, stderr.String())
			}
			if took > 3*time.Second {
				t.Errorf("took %v", took)
			}
			if rss == 0 || rss > budget+64<<20 {
				t.Errorf("peak RSS %d MiB, want under the budget (16 MiB) plus 64 MiB", rss>>20)
			}
		})
	}
}
