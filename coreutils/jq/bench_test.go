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
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c := &builtins.Call{Args: []string{"jq", "-c", `select(.level == "error") | {id, svc: .service}`},
			Stdin: strings.NewReader(data), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: fsys}
		if Run(context.Background(), c) != 0 {
			b.Fatal("failed")
		}
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
