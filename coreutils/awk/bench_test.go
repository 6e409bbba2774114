package awk

import (
	"context"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

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

// groupByPrograms are awk_groupby and two more programs of its kind
// (per-record updates of arrays keyed by a field, a report at the end),
// so that a gain is not one program's.
var groupByPrograms = []struct{ name, prog string }{
	{"sum-mean", groupBy},
	{"count-max", `NR > 1 { c[$2]++; if ($3 + 0 > m[$2]) m[$2] = $3 + 0 } END { for (k in c) print k, c[k], m[k] }`},
	{"filter-prefix", `$3 > 5000 { t[substr($2, 1, 2)] += $3; n++ } END { for (k in t) printf "%s %.2f\n", k, t[k]; print n }`},
}

func salesInput(n int) string {
	depts := []string{"eng", "ops", "sales", "support", "research", "legal", "finance"}
	var b strings.Builder
	b.WriteString("id,dept,amount\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "%d,%s,%d.%02d\n", i, depts[(i*7919)%len(depts)], (i*104729)%10000, i%100)
	}
	return b.String()
}

// cpuTime is the process's user and system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGroupBy runs each program of groupByPrograms on the same
// input (the shape of the bench's sales.csv) through awk and through
// goawk alone: their ratio is what the sandbox's rewrite, memory check
// and I/O cost. Compare cpu-ms/op (the process's CPU time, GC included)
// and allocations, paired in one run; ns/op is wall time.
func BenchmarkGroupBy(b *testing.B) {
	in := salesInput(300000)
	fsys := (&cmdtest.Env{Files: map[string]string{"sales.csv": in}}).NewFS()
	// A context that can end, as a call's always can.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, p := range groupByPrograms {
		b.Run(p.name+"/awk", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				c := &builtins.Call{Args: []string{"awk", "-F,", p.prog, "sales.csv"},
					Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: fsys}
				if Run(ctx, c) != 0 {
					b.Fatal("failed")
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
		b.Run(p.name+"/goawk", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				prog, err := parser.ParseProgram([]byte(p.prog), nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := interp.ExecProgram(prog, &interp.Config{Stdin: strings.NewReader(in), Output: io.Discard, Vars: []string{"FS", ","}}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}
