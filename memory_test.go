package bashbox_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
)

// TM-RES-006: commands that hold their input charge it to the call's
// memory budget as they allocate, so an endless or huge input ends on the
// memory budget, not on the machine's memory or the timeout.
func TestCommandsChargeMemory(t *testing.T) {
	cases := []struct{ name, script, msg string }{
		{"sort", `sort /dev/zero`, "sort: memory exhausted"},
		{"sort-pipe", `head -c 1500000000 /dev/zero | sort`, "sort: memory exhausted"},
		{"sort-lines", `yes abcdefgh | sort`, "sort: memory exhausted"},
		{"tac", `tac /dev/zero`, "Memory exhausted"},
		{"shuf", `shuf /dev/zero`, "Memory exhausted"},
		{"uniq", `uniq /dev/zero`, ""},
		{"diff", `diff /dev/zero /dev/urandom`, "Memory exhausted"},
		{"jq-s", `yes '{"a": 1}' | jq -s length`, ""},
		{"jq-s-values", `yes '[[], [], [], [], [], [], [], [], [], []]' | head -c 6000000 | jq -s length`, ""},
		{"jq-collect", `jq -n '[range(1e9)] | length'`, ""},
		{"jq-strings", `jq -n '[range(1e9) | "abcdefghij" * 100] | length'`, ""},
		{"jq-inputs", `yes '[1, 2, 3]' | jq -n '[inputs] | length'`, ""},
		{"jq-map", `jq -n '[range(1e7)] | map(. + 1) | map(tostring) | length'`, ""},
		{"jq-objects", `jq -n '[range(1e9) | {a: ., b: {c: .}}] | length'`, ""},
		{"jq-merged-objects", `jq -n '[range(1e9) | {a: .} + {b: .} * {c: {d: .}}] | length'`, ""},
		{"jq-reduce-object", `jq -n 'reduce range(1e9) as $i (null; {next: ., i: $i}) | length'`, ""},
		{"jq-reduce-shared", `jq -n 'reduce range(1e9) as $i ({}; {a: ., b: .}) | length'`, ""},
		{"jq-foreach-object", `jq -n '[foreach range(1e9) as $i (null; {p: ., i: $i})] | length'`, ""},
		{"jq-reduce-input", `yes '{"a": [1, 2, 3]}' | jq -n 'reduce inputs as $x ([]; [$x, .]) | length'`, ""},
		{"awk-array", `awk 'BEGIN { while (1) a[i++] = "abcdefghijklmnopqrstuvwxyz" }'`, ""},
		{"awk-input", `yes abcdefgh | awk '{ a[NR] = $0 }'`, ""},
		{"awk-array-via-function", `yes abcdefgh | awk 'function add(a, k) { a[k] = k } { add(seen, NR) }'`, ""},
		{"awk-getline-regex-rs", `awk 'BEGIN { RS = "x+"; while ((getline line < "/dev/zero") > 0) n++ }'`, ""},
		{"awk-split", `awk 'function f(n) { split("a b c d e f g h", t); for (k in t) all[n, k] = t[k] } BEGIN { while (1) f(i++) }'`, ""},
		{"sed-hold", `yes "$(printf '%01000d' 0)" | sed -n 'H; $p'`, "sed: couldn't re-allocate memory"},
		{"sed-line", `sed p /dev/zero`, ""},
		{"zip", `zip -q /tmp/a.zip - < /dev/zero`, ""},
		{"unzip", `unzip -l /dev/zero`, ""},
		{"git", `git init -q /tmp/r && cd /tmp/r && cat /dev/zero | git hash-object --stdin`, ""},
		{"subst-bomb", `head -c 24000000 /dev/zero | gzip > /tmp/b.gz; x=$(zcat /tmp/b.gz | tr '\0' a)`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := newBox(t, bashbox.Config{Limits: bashbox.Limits{MaxMemoryBytes: 16 << 20, Timeout: 60 * time.Second}})
			res := run(t, b, tc.script)
			if res.Budget == nil || res.Budget.Name != "memory" || res.ExitCode != 125 {
				t.Fatalf("budget %+v exit %d, stderr %q", res.Budget, res.ExitCode, res.Stderr)
			}
			if !strings.Contains(res.Stderr, tc.msg) || strings.Contains(res.Stderr, "internal error") {
				t.Errorf("stderr %q", res.Stderr)
			}
		})
	}
}

// TM-RES-008: git add charges a file to the memory budget before reading
// it (so a file larger than the budget trips it without being read), and
// gives each file back once stored (so adding many files each within the
// budget succeeds).
func TestGitAddChargesBeforeReading(t *testing.T) {
	b := newBox(t, bashbox.Config{Limits: bashbox.Limits{MaxMemoryBytes: 16 << 20, Timeout: 60 * time.Second}})
	res := run(t, b, `git init -q /tmp/r && cd /tmp/r && for i in 1 2 3 4 5 6; do head -c 3000000 /dev/zero > f$i; done
git add . && git status --short | wc -l`)
	if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != "6" {
		t.Fatalf("adding six 3 MB files under 16 MiB: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	res = run(t, b, `git init -q /tmp/r && cd /tmp/r && head -c 40000000 /dev/zero > big && git add big`)
	if res.Budget == nil || res.Budget.Name != "memory" || !strings.Contains(res.Stderr, "fatal: adding files failed") {
		t.Fatalf("a 40 MB file under 16 MiB: budget %+v, exit %d, stderr %q", res.Budget, res.ExitCode, res.Stderr)
	}
}
