package bench

import (
	"context"
	"os"
	"testing"
)

// BenchmarkOps runs each op through bashbox over the corpus named by
// BASHBOX_BENCH_CORPUS (build one with `bashbox bench`), so an op can be
// profiled on its own:
//
//	BASHBOX_BENCH_CORPUS=/tmp/bashbox-bench-corpus go test ./bench -run - -bench 'Ops/count_all' -cpuprofile cpu.out
func BenchmarkOps(b *testing.B) {
	root := os.Getenv("BASHBOX_BENCH_CORPUS")
	if root == "" {
		b.Skip("BASHBOX_BENCH_CORPUS is not set")
	}
	bb, err := NewBashbox(root)
	if err != nil {
		b.Fatal(err)
	}
	defer bb.Close()
	for _, op := range Ops {
		b.Run(op.Name, func(b *testing.B) {
			for b.Loop() {
				if o := bb.Run(context.Background(), op, root); o.Exit != 0 {
					b.Fatalf("%s: exit %d", op.Name, o.Exit)
				}
			}
		})
	}
}
