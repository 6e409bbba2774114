//go:build !bashbox_front

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb strings.Builder
	code := dispatch(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestRunInline(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runCLI(t, "", "run", "-v", dir+":/work", "-c", `echo "$(pwd) $1"; ls /work >/dev/null; exit 4`, "arg1")
	if out != "/work arg1\n" || code != 4 {
		t.Fatalf("out %q err %q code %d", out, errs, code)
	}
}

func TestRunJSON(t *testing.T) {
	out, _, code := runCLI(t, "", "run", "--json", "-c", "echo hi; echo oops >&2; exit 3")
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if res["stdout"] != "hi\n" || res["stderr"] != "oops\n" || res["exit_code"] != float64(3) || code != 3 {
		t.Fatalf("got %v", res)
	}
	for _, k := range []string{"duration_ms", "truncated", "budget", "commands_run"} {
		if _, ok := res[k]; !ok {
			t.Fatalf("missing %s in %s", k, out)
		}
	}
}

func TestRunScriptFromStdinAndFile(t *testing.T) {
	out, _, code := runCLI(t, "echo from-stdin\n", "run")
	if out != "from-stdin\n" || code != 0 {
		t.Fatalf("stdin script: %q %d", out, code)
	}
	f := filepath.Join(t.TempDir(), "s.sh")
	if err := os.WriteFile(f, []byte("echo \"file $1\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runCLI(t, "", "run", f, "a")
	if out != "file a\n" {
		t.Fatalf("file script: %q", out)
	}
}

func TestRunBudgetExitCodes(t *testing.T) {
	_, errs, code := runCLI(t, "", "run", "--timeout", "200ms", "-c", "while :; do :; done")
	if code != 124 || !strings.Contains(errs, "bashbox: budget exceeded: timeout") {
		t.Fatalf("timeout: %d %q", code, errs)
	}
	_, errs, code = runCLI(t, "", "run", "--max-loop-iterations", "10", "-c", "while :; do :; done")
	if code != 125 || !strings.Contains(errs, "bashbox: budget exceeded: loop_iterations (limit 10)") {
		t.Fatalf("loop: %d %q", code, errs)
	}
}

// TestUsageErrors: every bad invocation of every subcommand prints
// "bashbox: MESSAGE" and a one-line hint, and exits 2 before anything runs.
func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		msg  string // in the first line
		hint string // the second line
	}{
		{[]string{"run", "--bogus"}, "unknown option --bogus", "bashbox run --help"},
		{[]string{"run", "-x"}, "unknown option -x", "bashbox run --help"},
		{[]string{"run", "--timeout", "5", "-c", "true"}, `invalid value "5" for --timeout: want a duration with a unit`, "bashbox run --help"},
		{[]string{"run", "--timeout", "-1s", "-c", "true"}, "a budget must be positive", "bashbox run --help"},
		{[]string{"run", "--timeout", "0s", "-c", "true"}, "a budget must be positive", "bashbox run --help"},
		{[]string{"run", "--max-commands", "abc", "-c", "true"}, `invalid value "abc" for --max-commands: want a whole number`, "bashbox run --help"},
		{[]string{"run", "--max-commands", "0", "-c", "true"}, "a budget must be positive", "bashbox run --help"},
		{[]string{"run", "--workers", "-2", "-c", "true"}, "want 0 (one per CPU, up to 4) or more", "bashbox run --help"},
		{[]string{"run", "--max-nesting", "-3", "-c", "true"}, `invalid value "-3" for --max-nesting: a budget must be positive`, "bashbox run --help"},
		{[]string{"run", "--max-loop-iterations", "-5", "-c", "true"}, "a budget must be positive", "bashbox run --help"},
		{[]string{"run", "--max-memory", "0", "-c", "true"}, "a budget must be positive", "bashbox run --help"},
		{[]string{"run", "--max-output", "lots", "-c", "true"}, `invalid value "lots" for --max-output: want a size`, "bashbox run --help"},
		{[]string{"run", "-c"}, "option -c needs an argument", "bashbox run --help"},
		{[]string{"run", "--command"}, "option --command needs an argument", "bashbox run --help"},
		{[]string{"run", "-v", "/nonexistent-dir-xyz:/work", "-c", "true"}, "volume /nonexistent-dir-xyz", "bashbox run --help"},
		{[]string{"run", "-v", "/tmp:ephemeral", "-c", "true"}, "an ephemeral volume has no host directory", "bashbox run --help"},
		{[]string{"run", "-v", "/tmp:RW", "-c", "true"}, "is not absolute", "bashbox run --help"},
		{[]string{"run", "--env", "NOEQUALS", "-c", "true"}, "want NAME=VALUE", "bashbox run --help"},
		{[]string{"run", "--fallback", "no-such-binary-xyz", "-c", "true"}, "no-such-binary-xyz", "bashbox run --help"},
		{[]string{"run", "/nonexistent-script.sh"}, "/nonexistent-script.sh: No such file or directory", "bashbox run --help"},
		{[]string{"run", "-w", "/nope", "-c", "true"}, "/nope", "bashbox run --help"},
		{[]string{"serve", "--bogus"}, "unknown option --bogus", "bashbox serve --help"},
		{[]string{"serve", "--timeout", "5"}, "want a duration with a unit", "bashbox serve --help"},
		{[]string{"serve", "--max-commands", "abc"}, "want a whole number", "bashbox serve --help"},
		{[]string{"serve", "--config", "/nonexistent.yaml"}, "/nonexistent.yaml", "bashbox serve --help"},
		{[]string{"serve", "--http", "127.0.0.1:0"}, "needs a bearer token", "bashbox serve --help"},
		{[]string{"bash", "--bogus"}, "unknown option --bogus", "bashbox bash --help"},
		{[]string{"bash", "--timeout", "5", "-c", "true"}, "want a duration with a unit", "bashbox bash --help"},
		{[]string{"bash", "--timeout", "-1s", "-c", "true"}, "a budget must be positive", "bashbox bash --help"},
		{[]string{"bash", "-c"}, "option -c needs an argument", "bashbox bash --help"},
		{[]string{"bash"}, "give the command with -c", "bashbox bash --help"},
		{[]string{"bash", "--read", "/nonexistent-xyz", "-c", "true"}, "--read /nonexistent-xyz: No such file or directory", "bashbox bash --help"},
		{[]string{"doctor", "--bogus"}, "unknown option --bogus", "bashbox doctor --help"},
		{[]string{"doctor", "extra"}, `unexpected argument "extra"`, "bashbox doctor --help"},
		{[]string{"bench", "--bogus"}, "unknown option --bogus", "bashbox bench --help"},
		{[]string{"bench", "--reps", "x"}, "want a whole number", "bashbox bench --help"},
		{[]string{"version", "--bogus"}, "unknown option --bogus", "bashbox version --help"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`, "bashbox --help"},
		{[]string{"--frobnicate"}, `unknown option "--frobnicate"`, "bashbox --help"},
	}
	for _, c := range cases {
		out, errs, code := runCLI(t, "", c.args...)
		lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		if code != 2 || out != "" || len(lines) != 2 ||
			!strings.HasPrefix(lines[0], "bashbox: ") || !strings.Contains(lines[0], c.msg) ||
			!strings.Contains(lines[1], c.hint) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, \"bashbox: ...%s...\" and a hint naming %q", c.args, code, out, errs, c.msg, c.hint)
		}
		for _, internal := range []string{"strconv.", "time: ", "pflag", "stat ", "open "} {
			if strings.Contains(errs, internal) {
				t.Errorf("%q: internal error text %q reaches the user: %q", c.args, internal, errs)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, errs, code := runCLI(t, "", args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "bashbox ") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("%v: exit %d, out %q, err %q", args, code, out, errs)
		}
	}
	info := &debug.BuildInfo{GoVersion: "go1.24.0", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
	}}
	if got, want := versionText(info), "bashbox v1.2.3 (commit 0123456789ab, modified, 2026-01-02T03:04:05Z) go1.24.0"; got != want {
		t.Errorf("versionText = %q, want %q", got, want)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1024": 1024, "10k": 10240, "10KiB": 10240, "5MB": 5000000, "1GiB": 1 << 30} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("%s: %d %v", in, got, err)
		}
	}
}
