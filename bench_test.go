package bashbox_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/volumes"
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

// BenchmarkLoopFileCommands is a loop running text commands on a small
// host file, as agents' per-file loops do: the per-command cost of
// dispatch, buffers and redirection.
func BenchmarkLoopFileCommands(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("alpha beta\ngamma\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	box := newBox(b, bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadOnly}}})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := box.Run(ctx, bashbox.Request{Script: `for i in $(seq 200); do head -n 1 f.txt; wc -l < f.txt; grep -c a f.txt; done | tail -n 3`})
		if err != nil || res.Stdout != "alpha beta\n2\n2\n" {
			b.Fatal(err, res.Stdout, res.Stderr)
		}
	}
}
