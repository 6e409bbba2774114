package awk

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/benhoyt/goawk/interp"
	"github.com/benhoyt/goawk/parser"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func benchInput(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "line%d %d field%d\n", i, i%97, i%13)
	}
	return b.String()
}

func BenchmarkSumColumn(b *testing.B) {
	in := benchInput(200000)
	fsys := (&cmdtest.Env{Files: map[string]string{"in.txt": in}}).NewFS()
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		c := &builtins.Call{Args: []string{"awk", "{s += $2; n[$3]++} END {print s, length(n)}", "in.txt"},
			Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: fsys}
		if Run(context.Background(), c) != 0 {
			b.Fatal("failed")
		}
	}
}

func BenchmarkPrintFields(b *testing.B) {
	in := benchInput(200000)
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		c := &builtins.Call{Args: []string{"awk", "-v", "OFS=,", "{print $3, $1}"},
			Stdin: strings.NewReader(in), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: (&cmdtest.Env{}).NewFS()}
		if Run(context.Background(), c) != 0 {
			b.Fatal("failed")
		}
	}
}

// groupBy is the bench's awk_groupby program (bench/ops.go).
const groupBy = `NR > 1 { n[$2]++; s[$2] += $3 } END { for (k in n) printf "%s %d %.2f\n", k, n[k], s[k] / n[k] }`

func salesInput(n int) string {
	depts := []string{"eng", "ops", "sales", "support", "research", "legal", "finance"}
	var b strings.Builder
	b.WriteString("id,dept,amount\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "%d,%s,%d.%02d\n", i, depts[(i*7919)%len(depts)], (i*104729)%10000, i%100)
	}
	return b.String()
}

// BenchmarkGroupBy and BenchmarkGroupByGoawk run the same program on the
// same input through awk and through goawk alone: their ratio is what the
// sandbox's rewrite and I/O cost (compare CPU and allocations, paired).
func BenchmarkGroupBy(b *testing.B) {
	in := salesInput(300000)
	fsys := (&cmdtest.Env{Files: map[string]string{"sales.csv": in}}).NewFS()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		c := &builtins.Call{Args: []string{"awk", "-F,", groupBy, "sales.csv"},
			Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: fsys}
		if Run(context.Background(), c) != 0 {
			b.Fatal("failed")
		}
	}
}

func BenchmarkGroupByGoawk(b *testing.B) {
	in := salesInput(300000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		prog, err := parser.ParseProgram([]byte(groupBy), nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := interp.ExecProgram(prog, &interp.Config{Stdin: strings.NewReader(in), Output: io.Discard, Vars: []string{"FS", ","}}); err != nil {
			b.Fatal(err)
		}
	}
}
