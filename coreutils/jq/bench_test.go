package jq

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// BenchmarkSelectRecords is the bench's jq_filter op in small: a stream
// of JSON records of one shape, filtered and rebuilt (decode, key order
// bookkeeping, gojq and encode per record).
func BenchmarkSelectRecords(b *testing.B) {
	var in strings.Builder
	levels := []string{"info", "warn", "error"}
	for i := 0; i < 50000; i++ {
		fmt.Fprintf(&in, `{"id":%d,"level":%q,"service":"svc%d","latency_ms":%d,"msg":"event %d"}`+"\n", i, levels[i%3], i%7, i*37%5000, i)
	}
	data := in.String()
	fsys := (&cmdtest.Env{}).NewFS()
	// inline: one goroutine; ahead: a second CPU decodes ahead (ahead.go).
	for _, mode := range []struct {
		name    string
		workers int
	}{{"inline", 1}, {"ahead", 2}} {
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				c := &builtins.Call{Args: []string{"jq", "-c", `select(.level == "error") | {id, svc: .service}`},
					Stdin: strings.NewReader(data), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: fsys, Workers: mode.workers}
				if Run(context.Background(), c) != 0 {
					b.Fatal("failed")
				}
			}
		})
	}
}

// BenchmarkCollectObjects builds arrays of objects and a reduce state
// from 20,000 records: what the memory budget's charging of elements and
// states costs.
func BenchmarkCollectObjects(b *testing.B) {
	var in strings.Builder
	in.WriteString("[")
	for i := 0; i < 20000; i++ {
		if i > 0 {
			in.WriteString(",")
		}
		fmt.Fprintf(&in, `{"k":"key%d","v":%d,"tags":["a","b"]}`, i%50, i)
	}
	in.WriteString("]")
	data := in.String()
	fsys := (&cmdtest.Env{}).NewFS()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c := &builtins.Call{Args: []string{"jq", "-c", `[map({k, w: (.v * 2), t: .tags}), [foreach .[] as $x (0; . + $x.v)], (reduce .[] as $x (null; {v: $x.v, prev: .}) | .v)] | map(length)`},
			Stdin: strings.NewReader(data), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: fsys}
		if Run(context.Background(), c) != 0 {
			b.Fatal("failed")
		}
	}
}

// reduceInput is n records {"k": ..., "v": ...} with n/2 distinct keys:
// a reduce that keys its state by .k grows an object to n/2 keys.
func reduceInput(n int) string {
	var in strings.Builder
	in.WriteString("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			in.WriteString(",")
		}
		fmt.Fprintf(&in, `{"k":"key%d","v":%d}`, i%(n/2), i)
	}
	in.WriteString("]")
	return in.String()
}

// BenchmarkReduceUpdate is a reduce building an object keyed by the
// records (issue 20): each step must cost about the same, however big
// the state has grown, so 200k records take about ten times 20k.
func BenchmarkReduceUpdate(b *testing.B) {
	forms := []struct{ name, filter string }{
		{"add_assign", `reduce .[] as $x ({}; .[$x.k] += $x.v) | length`},
		{"assign", `reduce .[] as $x ({}; .[$x.k] = $x.v) | length`},
		{"setpath", `reduce .[] as $x ({}; setpath([$x.k]; $x.v)) | length`},
		{"merge", `reduce .[] as $x ({}; . + {($x.k): $x.v}) | length`},
		{"group", `reduce .[] as $x ({}; .[$x.k] += [$x]) | length`},
		{"from_entries", `map({key: .k, value: .v}) | from_entries | length`},
	}
	for _, n := range []int{20000, 200000} {
		data := reduceInput(n)
		for _, f := range forms {
			b.Run(fmt.Sprintf("%s/%d", f.name, n), func(b *testing.B) {
				fsys := (&cmdtest.Env{}).NewFS()
				b.ReportAllocs()
				for b.Loop() {
					c := &builtins.Call{Args: []string{"jq", "-c", f.filter},
						Stdin: strings.NewReader(data), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: fsys}
					if Run(context.Background(), c) != 0 {
						b.Fatal("failed")
					}
				}
			})
		}
	}
}
