package interp_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/interp"
	"github.com/bashbox/bashbox/volumes"
)

// nativeBox is a box on the native engine over an empty read-write volume
// at /work.
func nativeBox(t testing.TB, limits bashbox.Limits, cmds map[string]builtins.Command) *bashbox.Box {
	t.Helper()
	b, err := bashbox.New(bashbox.Config{
		Volumes:  []volumes.Volume{{HostDir: t.TempDir(), GuestPath: "/work", Mode: volumes.ReadWrite}},
		Limits:   limits,
		Commands: cmds,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func runNative(t testing.TB, b *bashbox.Box, script string) *bashbox.Result {
	t.Helper()
	res, err := b.Run(context.Background(), bashbox.Request{Script: script})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestEngineNoHostLookups: nothing a script names is looked up on the host:
// pwd -P in every spelling, ~user, source's PATH search, process ids.
func TestEngineNoHostLookups(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{}, nil)
	for _, c := range []struct{ script, stdout, stderr string }{
		{`PWD=/proc/self/cwd builtin pwd -P; pwd -L -P; command pwd -P; PWD=/ pwd`, "/work\n/work\n/work\n/work\n", ""},
		{`echo ~root ~nobody ~ ~user`, "/root ~nobody /home/user /home/user\n", ""},
		{`PATH=/root builtin source .bashrc; echo $?`, "1\n", "bash: line 1: .bashrc: No such file or directory\n"},
		{`x=PPID; y='$'; echo $$ $PPID $((PPID)) $(($$)) ${!x} $BASHPID; declare -p PPID; let z=PPID+1; echo $z; builtin eval 'echo $$ $PPID'`,
			"2 1 1 2 1 2\ndeclare -ir PPID=\"1\"\n2\n2 1\n", ""},
		{`echo $(echo $BASHPID) $$; (echo $BASHPID $$)`, "3 2\n4 2\n", ""},
	} {
		res := runNative(t, b, c.script)
		if res.Stdout != c.stdout || res.Stderr != c.stderr {
			t.Errorf("%s:\n got %q / %q\nwant %q / %q", c.script, res.Stdout, res.Stderr, c.stdout, c.stderr)
		}
	}
}

// TestEnginePanicsAreCallErrors: a panic in any goroutine of the call
// (pipeline stages, background jobs, process and command substitutions)
// becomes an error of that call; the process and later calls go on.
func TestEnginePanicsAreCallErrors(t *testing.T) {
	boom := func(ctx context.Context, c *builtins.Call) int { panic("boom") }
	b := nativeBox(t, bashbox.Limits{}, map[string]builtins.Command{"boom": boom})
	for _, script := range []string{
		`boom | cat; echo "after $?"`,
		`boom & wait; echo "after $?"`,
		`cat <(boom); echo "after $?"`,
		`x=$(boom); echo "after $?"`,
		`coproc boom; wait; echo "after $?"`,
		`{ [[ -O /work ]]; } | cat; [[ -G f ]] & wait; n=""; { [[ -v $n ]]; } | cat; { unset ""; } | cat; f() { local -n r=""; }; f & wait; echo "after $?"`,
	} {
		res := runNative(t, b, script)
		if !strings.Contains(res.Stdout, "after") {
			t.Errorf("%s: stdout %q stderr %q", script, res.Stdout, res.Stderr)
		}
	}
	if res := runNative(t, b, "echo still"); res.Stdout != "still\n" {
		t.Fatalf("later call: %q", res.Stdout)
	}
}

// TestEngineNestingBudget: every recursive construct stops on the nesting
// budget with bash's line and status 125, never a Go stack overflow.
func TestEngineNestingBudget(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{MaxNesting: 200}, nil)
	for _, c := range []struct{ script, line string }{
		{`echo ". /tmp/s" > /tmp/s; . /tmp/s`, "source: maximum source nesting level exceeded (200)"},
		{`s='eval "$s"'; eval "$s"`, "eval: maximum eval nesting level exceeded (200)"},
		{`f() { f; }; f`, "f: maximum function nesting level exceeded (200)"},
		{`f() { (f); }; f`, "maximum"},
		{`f() { echo $(f); }; f`, "maximum"},
		{`f() { cat <(f); }; f`, "maximum"},
		{`echo 'bash /tmp/r' > /tmp/r; bash /tmp/r`, "maximum nesting level exceeded (200)"},
		{`echo 'bash -c "source /tmp/r"' > /tmp/r; source /tmp/r`, "maximum"},
	} {
		res := runNative(t, b, c.script)
		if res.ExitCode != 125 || res.Budget == nil || res.Budget.Name != interp.BudgetNesting || !strings.Contains(res.Stderr, c.line) {
			t.Errorf("%s: exit %d budget %v stderr %q", c.script, res.ExitCode, res.Budget, firstLines(res.Stderr))
		}
	}
}

func firstLines(s string) string {
	if len(s) > 300 {
		return s[:300]
	}
	return s
}

// TestEngineInputNesting: deeply nested input is refused before the
// parser recurses, quickly, in eval too.
func TestEngineInputNesting(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{}, nil)
	deep := strings.Repeat("((", 300000)
	for _, script := range []string{deep, "eval '" + deep + "'", "x=" + strings.Repeat("$(", 100000), strings.Repeat("{ ", 200000)} {
		start := time.Now()
		res := runNative(t, b, script)
		if res.ExitCode == 0 || time.Since(start) > 5*time.Second {
			t.Errorf("%.20s...: exit %d after %v", script, res.ExitCode, time.Since(start))
		}
	}
}

// TestEngineLoopBudgetEverywhere: loops count against the budget in eval,
// builtin eval, command eval, source and nested shells alike.
func TestEngineLoopBudgetEverywhere(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{MaxLoopIterations: 1000}, nil)
	for _, script := range []string{
		`while :; do :; done`,
		`builtin eval 'while :; do :; done'`,
		`command eval 'while :; do :; done'`,
		`for i in 1 2; do eval 'while :; do :; done'; done`,
		`echo 'while :; do :; done' > /tmp/l; source /tmp/l`,
		`bash -c 'until false; do :; done'`,
		`for ((;;)); do :; done`,
	} {
		res := runNative(t, b, script)
		if res.Budget == nil || res.Budget.Name != interp.BudgetLoop || res.ExitCode != 125 {
			t.Errorf("%s: exit %d budget %v stderr %q", script, res.ExitCode, res.Budget, res.Stderr)
		}
	}
}

// TestEngineSubshellStateStays: what a subshell changes never reaches its
// parent.
func TestEngineSubshellStateStays(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{}, nil)
	res := runNative(t, b, `(umask 077); umask; (set -C); set -o | grep noclobber; (cd /tmp); pwd; (x=1; a[3]=2); echo "[$x${a[3]}]"
(f() { :; }; alias l=ls; trap 'echo t' EXIT); type -t f; alias l; echo $(y=2) "[$y]"; echo z | { read v; }; echo "[$v]"`)
	want := "0022\nnoclobber      \toff\n/work\n[]\nt\n[]\n[]\n"
	if res.Stdout != want {
		t.Fatalf("got %q, want %q (stderr %q)", res.Stdout, want, res.Stderr)
	}
}

// TestEngineMemoryBudget: what a script builds is charged where it grows.
func TestEngineMemoryBudget(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{MaxMemoryBytes: 4 << 20}, nil)
	for _, script := range []string{
		`x=$(head -c 3000000000 /dev/zero | tr '\0' a)`,
		`a=($(seq 1 100000000))`,
		`x=a; while :; do x=$x$x; done`,
		`while :; do a+=(xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx); done`,
		`head -c 10000000 /dev/zero | tr '\0' a | { read -r l; echo ${#l}; }`,
	} {
		start := time.Now()
		res := runNative(t, b, script)
		// The bound on time only catches a script that ran to the
		// call's timeout instead of stopping on the budget.
		if res.Budget == nil || res.Budget.Name != interp.BudgetMemory || time.Since(start) > 50*time.Second {
			t.Errorf("%s: exit %d budget %v after %v, stderr %q", script, res.ExitCode, res.Budget, time.Since(start), firstLines(res.Stderr))
		}
	}
}

// TestEngineGoroutinesEndWithTheCall: a call returns only after every
// goroutine it started has ended, background jobs included.
func TestEngineGoroutinesEndWithTheCall(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{}, nil)
	runNative(t, b, "echo warm | cat")
	before := runtime.NumGoroutine()
	start := time.Now()
	res := runNative(t, b, `sleep 30 & cat <(sleep 30) & yes | head -1; coproc cat; echo done`)
	if res.Stdout != "y\ndone\n" || time.Since(start) > 5*time.Second {
		t.Fatalf("got %q after %v", res.Stdout, time.Since(start))
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after the call, %d before", n, before)
	}
}

// TestEngineErrorsAsBash: errors carry bash's non-interactive prefix and
// abandon what bash abandons.
func TestEngineErrorsAsBash(t *testing.T) {
	b := nativeBox(t, bashbox.Limits{}, nil)
	for _, c := range []struct {
		script, stdout, stderr string
		exit                   int
	}{
		{"nosuch", "", "bash: line 1: nosuch: command not found\n", 127},
		{"echo $((1/0)); echo same\necho next", "next\n", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 0},
		{"readonly r=1; r=2; echo same\necho $?", "1\n", "bash: line 1: r: readonly variable\n", 0},
		{"set -u; echo $nope; echo after", "", "bash: line 1: nope: unbound variable\n", 127},
		{"return; echo after", "after\n", "bash: line 1: return: can only `return' from a function or sourced script\n", 0},
		{"unset y; echo ${y:?oops}; echo same\necho next", "", "bash: line 1: y: oops\n", 127},
		{"echo start; if then fi", "", "bash: -c: line 1: syntax error near unexpected token `then'\nbash: -c: line 1: `echo start; if then fi'\n", 2},
	} {
		res := runNative(t, b, c.script)
		if res.Stdout != c.stdout || res.Stderr != c.stderr || res.ExitCode != c.exit {
			t.Errorf("%q:\n got %q / %q / %d\nwant %q / %q / %d", c.script, res.Stdout, res.Stderr, res.ExitCode, c.stdout, c.stderr, c.exit)
		}
	}
}
