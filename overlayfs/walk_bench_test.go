//go:build unix

package overlayfs

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// reportCPU adds the process's CPU time per op (user+sys) to a
// benchmark's figures: on a shared machine wall time mostly measures the
// neighbours. Call it before the loop.
func reportCPU(b *testing.B) {
	start := cpuTime()
	b.Cleanup(func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	})
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// walkTree makes a host tree of 50 directories of 40 small files each,
// two levels deep: the shape of a source tree, per entry.
func walkTree(b *testing.B) (string, []string) {
	dir := b.TempDir()
	var files []string
	for d := range 50 {
		sub := fmt.Sprintf("pkg%02d/internal", d)
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			b.Fatal(err)
		}
		for i := range 40 {
			name := fmt.Sprintf("%s/file%02d.go", sub, i)
			if err := os.WriteFile(filepath.Join(dir, name), []byte("package p\n\nfunc F() {}\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			files = append(files, "/"+name)
		}
	}
	return dir, files
}

// walkLayer lists every directory below name as find does.
func walkLayer(b *testing.B, h *HostFs, name string, typesOnly bool) int {
	list := h.ReadDir
	if typesOnly {
		list = h.ReadDirTypes
	}
	infos, err := list(name)
	if err != nil {
		b.Fatal(err)
	}
	n := len(infos)
	for _, fi := range infos {
		if fi.IsDir() {
			n += walkLayer(b, h, path.Join(name, fi.Name()), typesOnly)
		}
	}
	return n
}

func benchHostWalk(b *testing.B, typesOnly bool) {
	dir, _ := walkTree(b)
	h, err := NewHostFs(dir, true)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	b.ReportAllocs()
	reportCPU(b)
	for b.Loop() {
		if n := walkLayer(b, h, "/", typesOnly); n != 50*41+50 {
			b.Fatal(n)
		}
	}
}

// BenchmarkHostWalkTypes is find -type f's listing: names and d_type.
func BenchmarkHostWalkTypes(b *testing.B) { benchHostWalk(b, true) }

// BenchmarkHostWalkStat is find -size's listing: an lstat per entry.
func BenchmarkHostWalkStat(b *testing.B) { benchHostWalk(b, false) }

// BenchmarkOSWalk is the baseline: the same tree listed with os.ReadDir.
func BenchmarkOSWalk(b *testing.B) {
	dir, _ := walkTree(b)
	b.ReportAllocs()
	reportCPU(b)
	var walk func(string) int
	walk = func(p string) int {
		entries, err := os.ReadDir(p)
		if err != nil {
			b.Fatal(err)
		}
		n := len(entries)
		for _, e := range entries {
			if e.IsDir() {
				n += walk(filepath.Join(p, e.Name()))
			}
		}
		return n
	}
	for b.Loop() {
		walk(dir)
	}
}

// BenchmarkHostStatOpenRead is what grep does per operand: stat, open,
// read to the end, close.
func BenchmarkHostStatOpenRead(b *testing.B) {
	dir, files := walkTree(b)
	h, err := NewHostFs(dir, true)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	buf := make([]byte, 32<<10)
	b.ReportAllocs()
	reportCPU(b)
	for b.Loop() {
		for _, name := range files {
			if _, err := h.StatFollow(name); err != nil {
				b.Fatal(err)
			}
			f, err := h.OpenFollow(name)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.CopyBuffer(io.Discard, readerOnly{f}, buf); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	}
}

// BenchmarkOSStatOpenRead is its baseline with os.
func BenchmarkOSStatOpenRead(b *testing.B) {
	dir, files := walkTree(b)
	buf := make([]byte, 32<<10)
	b.ReportAllocs()
	reportCPU(b)
	for b.Loop() {
		for _, name := range files {
			p := dir + name
			if _, err := os.Stat(p); err != nil {
				b.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			io.CopyBuffer(io.Discard, readerOnly{f}, buf)
			f.Close()
		}
	}
}
