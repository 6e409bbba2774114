package bench

import (
	"context"
	"os"
	"testing"
)

// BenchmarkLoopsVsBash times each LoopOps loop through bash 5.2 and
// through bashbox in the same run (interleaved, medians) and reports
// bashbox's time as a multiple of bash's ("x-bash", the target is at most
// 1.0) and bash's own time:
//
//	go test ./bench -run - -bench LoopsVsBash -benchtime 1x
func BenchmarkLoopsVsBash(b *testing.B) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		b.Skip("no /bin/bash to compare with")
	}
	root := b.TempDir()
	bb, err := NewBashbox(root)
	if err != nil {
		b.Fatal(err)
	}
	defer bb.Close()
	for _, op := range LoopOps {
		b.Run(op.Name, func(b *testing.B) {
			for b.Loop() {
				rep := Run(context.Background(), Config{Root: root, Ops: []Op{op}, Runners: []Runner{HostShell{Path: "/bin/bash"}, bb}, Reps: 3})
				res := rep.Ops[0]
				if !res.Identical[bb.Name()] {
					b.Fatalf("%s: outputs differ:\nbash:    %s\nbashbox: %s", op.Name, res.Outputs["/bin/bash"], res.Outputs[bb.Name()])
				}
				b.ReportMetric(res.Ratio, "x-bash")
				b.ReportMetric(res.Medians["/bin/bash"], "bash-ms")
			}
		})
	}
}

// BenchmarkLoopHeavyVsSh times the exp10 loop_heavy op through /bin/sh and
// bashbox in the same run; "x-sh" is bashbox's time as a multiple of
// /bin/sh's (the target is at most 1.0).
func BenchmarkLoopHeavyVsSh(b *testing.B) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		b.Skip("no /bin/sh to compare with")
	}
	root := b.TempDir()
	bb, err := NewBashbox(root)
	if err != nil {
		b.Fatal(err)
	}
	defer bb.Close()
	for _, op := range Ops {
		if op.Name != "loop_heavy" {
			continue
		}
		for b.Loop() {
			rep := Run(context.Background(), Config{Root: root, Ops: []Op{op}, Runners: []Runner{HostShell{Path: "/bin/sh"}, bb}, Reps: 3})
			b.ReportMetric(rep.Ops[0].Ratio, "x-sh")
			b.ReportMetric(rep.Ops[0].Medians["/bin/sh"], "sh-ms")
		}
	}
}

// BenchmarkLoops runs each LoopOps loop and loop_heavy through bashbox
// alone, so one loop can be profiled:
//
//	go test ./bench -run - -bench 'Loops/loop_heavy' -cpuprofile cpu.out
func BenchmarkLoops(b *testing.B) {
	root := b.TempDir()
	bb, err := NewBashbox(root)
	if err != nil {
		b.Fatal(err)
	}
	defer bb.Close()
	ops := append([]Op{}, LoopOps...)
	for _, op := range Ops {
		if op.Name == "loop_heavy" {
			ops = append(ops, op)
		}
	}
	for _, op := range ops {
		b.Run(op.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if o := bb.Run(context.Background(), op, root); o.Exit != 0 {
					b.Fatalf("%s: exit %d", op.Name, o.Exit)
				}
			}
		})
	}
}
