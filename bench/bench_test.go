package bench

import (
	"context"
	"os"
	"os/exec"
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
	ops := []Op{{Name: "echo", Script: `echo hi`}, {Name: "loop", Script: `i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; echo $i`}}
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
	// The loop keeps a CPU busy for milliseconds in both runners: its CPU
	// time, the host shell's from wait4 and bashbox's own, is measured.
	if loop := rep.Ops[1]; loop.CPUMedians["/bin/sh"] <= 0 || loop.CPUMedians["bashbox"] <= 0 || loop.CPURatio <= 0 {
		t.Errorf("loop: CPU not measured: %v, ratio %v", loop.CPUMedians, loop.CPURatio)
	}
	var table strings.Builder
	rep.WriteTable(&table)
	if rep.Machine == "" || !strings.Contains(rep.Markdown(), rep.Machine) || !strings.Contains(string(rep.JSON()), `"machine"`) {
		t.Errorf("report does not say where it ran: %q", rep.Machine)
	}
	if !strings.Contains(table.String(), "TOTAL") || !strings.Contains(rep.Markdown(), "| echo |") || !strings.Contains(rep.SVG(), "<svg") || !strings.Contains(string(rep.JSON()), `"median_ms"`) || !strings.Contains(string(rep.JSON()), `"median_cpu_ms"`) {
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

func TestGeoMeanOfRatios(t *testing.T) {
	r := &Report{Runners: []string{"sh", "bashbox"}, Ops: []OpResult{
		{Medians: map[string]float64{"sh": 10, "bashbox": 40}},
		{Medians: map[string]float64{"sh": 10, "bashbox": 2.5}},
		{Medians: map[string]float64{"sh": 0, "bashbox": 5}}, // not timed by the baseline: left out
	}}
	if g := r.geoMean("bashbox"); g < 0.999 || g > 1.001 {
		t.Fatalf("geometric mean of 4x and 0.25x = %v, want 1", g)
	}
}

// TestStartupAndMemory runs a start-up op and the memory figures through a
// stand-in for the CLI (a shell script taking the CLI's arguments), so the
// plumbing is checked without building the binary.
func TestStartupAndMemory(t *testing.T) {
	root := t.TempDir()
	fake := filepath.Join(t.TempDir(), "bashbox")
	count := filepath.Join(t.TempDir(), "launches")
	script := "#!/bin/sh\n[ \"$1 $2 $4\" = \"run -v -c\" ] || exit 9\necho x >> " + count + "\nexec /bin/sh -c \"$5\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	bb, err := NewBashbox(root)
	if err != nil {
		t.Fatal(err)
	}
	defer bb.Close()
	bb.Exe = fake
	op := Op{Name: "startup", Script: "echo up", Launches: 4}
	rep := Run(context.Background(), Config{Root: root, Ops: []Op{op}, Runners: []Runner{HostShell{Path: "/bin/sh"}, bb}, Reps: 1})
	if res := rep.Ops[0]; !res.Identical["bashbox"] || res.Outputs["bashbox"] != "exit 0\nup\n" {
		t.Fatalf("start-up op: %q", res.Outputs)
	}
	data, _ := os.ReadFile(count)
	if n := strings.Count(string(data), "x"); n != 8 { // warm-up and one repetition, 4 launches each
		t.Fatalf("the CLI was launched %d times, want 8", n)
	}
	if g := rep.GeoMeans["bashbox"]; g <= 0 {
		t.Fatalf("no geometric mean: %v", rep.GeoMeans)
	}
	m, err := MeasureMemory(context.Background(), HostShell{Path: "/bin/sh"}, bb, Op{Name: "cat", Script: "head -c 1000000 /dev/zero | wc -c"}, root)
	if err != nil {
		t.Fatal(err)
	}
	if m.PeakRSSKiB["/bin/sh"] <= 0 || m.PeakRSSKiB["bashbox"] <= 0 || m.EchoAllocBytes <= 0 {
		t.Fatalf("memory figures missing: %+v", m)
	}
	rep.Memory = m
	var table strings.Builder
	rep.WriteTable(&table)
	for _, want := range []string{"GEOMEAN", "peak RSS of cat", "per `echo hi` call"} {
		if !strings.Contains(table.String()+rep.Markdown(), want) {
			t.Errorf("reports lack %q:\n%s", want, table.String())
		}
	}
}

// The start-up figure against bash: paired launches of the CLI (a stand-in
// here) and of bash, both timed by wall and CPU, in both reports.
func TestMeasureStartup(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "bashbox")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n[ \"$*\" = \"run -c true\" ] || exit 9\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	s, err := MeasureStartup(context.Background(), fake, bash, 3, StartupConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Launches != 3 || s.BashboxWallMs <= 0 || s.BashWallMs <= 0 || s.BashboxCPUMs < 0 || s.WallRatio() <= 0 {
		t.Fatalf("start-up figures: %+v", s)
	}
	rep := &Report{Runners: []string{"/bin/sh", "bashbox"}, Startup: s}
	var table strings.Builder
	rep.WriteTable(&table)
	for _, out := range []string{table.String(), rep.Markdown()} {
		if !strings.Contains(out, "`bash -c true`") || !strings.Contains(out, "x bash by wall") {
			t.Errorf("report lacks the start-up figure:\n%s", out)
		}
	}
	if _, err := MeasureStartup(context.Background(), "/bin/false", bash, 1, StartupConfig{}); err == nil {
		t.Error("a failing launch measured without an error")
	}
}
