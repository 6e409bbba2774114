package interp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/interp"
)

// TestEngineMemoryChargedWhereItGrows: strings built by expansions,
// appends and joins are held against the memory budget while they grow,
// so each of these ends on the budget instead of holding gigabytes.
func TestEngineMemoryChargedWhereItGrows(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{MaxMemoryBytes: 4 << 20, MaxLoopIterations: 1 << 30}, nil)
	x := `x=$(printf "%0100000d" 0); `
	for _, script := range []string{
		x + `y=${x//?/$x}`,
		x + `y=${x//0/$x}; echo never`,
		x + `y=` + strings.Repeat("$x", 60),
		x + `echo ` + strings.Repeat("$x", 60) + ` >/dev/null`,
		`while :; do s+=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done`,
		`while :; do a+=(x); done`,
		x + `a=(); for i in {1..30}; do a+=("$x"); done; y="${a[*]}"`,
		`x=$(head -c 100000000 /dev/zero | tr '\0' a); echo never`,
	} {
		start := time.Now()
		res := runNative(t, b, script)
		// The bound on time only catches a script that ran to the
		// call's timeout instead of stopping on the budget.
		if res.Budget == nil || res.Budget.Name != interp.BudgetMemory || strings.Contains(res.Stdout, "never") || time.Since(start) > 50*time.Second {
			t.Errorf("%.60s: exit %d budget %v after %v, stderr %q", script, res.ExitCode, res.Budget, time.Since(start), firstLines(res.Stderr))
		}
	}
}

// TestEngineDeadlineInsideExpansions: one expansion that would run for
// minutes (a pattern replacement over a long string, building a string
// far larger than the budget allows in time) stops at the call's
// deadline, not after it.
func TestEngineDeadlineInsideExpansions(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{Timeout: time.Second, MaxMemoryBytes: 1 << 30}, nil)
	for _, script := range []string{
		`shopt -s extglob; x=$(printf "%030000d" 0); y=${x//+(0|00)1/z}`,
		`shopt -s extglob; x=$(printf "%030000d" 0); y=${x/%+(0|00)1/z}`,
		`x=$(head -c 20000000 /dev/zero | tr '\0' a); while :; do y=${x//?/b}; done`,
	} {
		start := time.Now()
		res := runNative(t, b, script)
		if res.Budget == nil || res.Budget.Name != interp.BudgetTime || time.Since(start) > 20*time.Second {
			t.Errorf("%.60s: exit %d budget %v after %v, stderr %q", script, res.ExitCode, res.Budget, time.Since(start), firstLines(res.Stderr))
		}
	}
}
