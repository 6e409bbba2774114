package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunAndReports(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bb, err := NewBashbox(root)
	if err != nil {
		t.Fatal(err)
	}
	defer bb.Close()
	ops := []Op{{"echo", `echo hi`}, {"loop", `i=0; while [ $i -lt 10 ]; do i=$((i+1)); done; echo $i`}}
	rep := Run(context.Background(), Config{Root: root, Ops: ops, Runners: []Runner{HostShell{Path: "/bin/sh"}, bb}, Reps: 2})
	if len(rep.Ops) != 2 {
		t.Fatalf("ops %d", len(rep.Ops))
	}
	for _, op := range rep.Ops {
		if !op.Identical["bashbox"] {
			t.Errorf("%s: outputs differ: %q", op.Name, op.Outputs)
		}
		if op.Ratio <= 0 {
			t.Errorf("%s: ratio %v", op.Name, op.Ratio)
		}
	}
	var table strings.Builder
	rep.WriteTable(&table)
	if rep.Machine == "" || !strings.Contains(rep.Markdown(), rep.Machine) || !strings.Contains(string(rep.JSON()), `"machine"`) {
		t.Errorf("report does not say where it ran: %q", rep.Machine)
	}
	if !strings.Contains(table.String(), "TOTAL") || !strings.Contains(rep.Markdown(), "| echo |") || !strings.Contains(rep.SVG(), "<svg") || !strings.Contains(string(rep.JSON()), `"median_ms"`) {
		t.Fatalf("reports incomplete:\n%s", table.String())
	}
	sec := rep.ReadmeSection("bashbox bench --quick --readme")
	for _, want := range []string{rep.Started.UTC().Format("2006-01-02"), rep.Machine, "`bashbox bench --quick --readme`", "| echo |", "| **total** |"} {
		if !strings.Contains(sec, want) {
			t.Errorf("README section lacks %q:\n%s", want, sec)
		}
	}
}

func TestMakeCorpus(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "pkg", "a.go"), []byte("package pkg\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "README.vendor"), []byte("r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "corpus")
	if err := MakeCorpus(src, dst); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"pkg/a.go", "bench-data/events.jsonl", "bench-data/sales.csv", "bench-data/words.txt", ".git/HEAD"} {
		if _, err := os.Stat(filepath.Join(dst, p)); err != nil {
			t.Error(err)
		}
	}
	if t, err := os.Readlink(filepath.Join(dst, "bench-data", "dangling-link")); err != nil || t == "" {
		panic("no dangling link")
	}
}
