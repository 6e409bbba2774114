package overlayfs

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchFileSize is the file the read-throughput benchmarks stream.
const benchFileSize = 32 << 20

func benchRead(b *testing.B, fsys Layer, name string) {
	b.SetBytes(benchFileSize)
	b.ReportAllocs()
	buf := make([]byte, 128<<10) // what the commands' buffered readers use
	for b.Loop() {
		f, err := fsys.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.CopyBuffer(io.Discard, readerOnly{f}, buf)
		f.Close()
		if err != nil || n != benchFileSize {
			b.Fatal(n, err)
		}
	}
}

// readerOnly hides WriterTo/ReaderFrom so the copy goes through Read.
type readerOnly struct{ io.Reader }

// BenchmarkOverlayReadBase reads a host file through a read-only overlay
// that holds no change: the path every script's reads take.
func BenchmarkOverlayReadBase(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, benchFileSize), 0o644); err != nil {
		b.Fatal(err)
	}
	benchRead(b, newOverlay(b, dir), "/big")
}

// BenchmarkOverlayReadUpper reads a file written into the overlay's
// memory layer.
func BenchmarkOverlayReadUpper(b *testing.B) {
	o := newOverlay(b, b.TempDir())
	f, err := o.Create("/big")
	if err != nil {
		b.Fatal(err)
	}
	f.Write(make([]byte, benchFileSize))
	f.Close()
	benchRead(b, o, "/big")
}

// BenchmarkHostRead is the baseline: the same file read with os.Open.
func BenchmarkHostRead(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "big")
	if err := os.WriteFile(p, make([]byte, benchFileSize), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchFileSize)
	buf := make([]byte, 128<<10)
	for b.Loop() {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		io.CopyBuffer(io.Discard, readerOnly{f}, buf)
		f.Close()
	}
}

// BenchmarkOverlayWriteUpper writes a 256 MiB file into the overlay's
// memory layer in 128 KiB pieces, as cp and dd do. max-write-µs is the
// longest single Write: the time one call holds the layer's lock and, if
// the file had to be copied whole to grow, a memmove no stop or GC could
// interrupt.
func BenchmarkOverlayWriteUpper(b *testing.B) {
	const size = 256 << 20
	o := newOverlay(b, b.TempDir())
	piece := make([]byte, 128<<10)
	b.SetBytes(size)
	b.ReportAllocs()
	var longest time.Duration
	for b.Loop() {
		f, err := o.Create("/big")
		if err != nil {
			b.Fatal(err)
		}
		for written := 0; written < size; written += len(piece) {
			start := time.Now()
			if _, err := f.Write(piece); err != nil {
				b.Fatal(err)
			}
			longest = max(longest, time.Since(start))
		}
		f.Close()
		if err := o.Remove("/big"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(longest.Microseconds()), "max-write-µs")
}
