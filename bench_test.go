package bashbox_test

import (
	"context"
	"testing"

	"github.com/bashbox/bashbox"
)

// BenchmarkEchoHi is the per-call overhead: a fresh interpreter, namespace
// and overlay for a one-command script.
func BenchmarkEchoHi(b *testing.B) {
	box := newBox(b, bashbox.Config{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := box.Run(ctx, bashbox.Request{Script: "echo hi"})
		if err != nil || res.Stdout != "hi\n" {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkLoopBasename is a 1,000-iteration loop calling a registry
// command: the dispatch cost per command.
func BenchmarkLoopBasename(b *testing.B) {
	box := newBox(b, bashbox.Config{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := box.Run(ctx, bashbox.Request{Script: `for i in $(seq 1000); do basename /a/b/c$i.txt .txt; done | tail -n 1`})
		if err != nil || res.Stdout != "c1000\n" {
			b.Fatal(err, res.Stdout, res.Stderr)
		}
	}
}
