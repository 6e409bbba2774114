package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("x\n"), 0o644)
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
	os.WriteFile(f, []byte("echo \"file $1\"\n"), 0o644)
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

func TestRunUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--bogus"},
		{"run", "-v", "/nonexistent-dir-xyz:/work", "-c", "true"},
		{"run", "--max-output", "lots", "-c", "true"},
		{"run", "--env", "NOEQUALS", "-c", "true"},
		{"run", "--fallback", "no-such-binary-xyz", "-c", "true"},
		{"frobnicate"},
	} {
		if _, _, code := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1024": 1024, "10k": 10240, "10KiB": 10240, "5MB": 5000000, "1GiB": 1 << 30} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("%s: %d %v", in, got, err)
		}
	}
}
