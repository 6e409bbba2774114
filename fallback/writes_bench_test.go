package fallback

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bashbox/bashbox/overlayfs"
)

// BenchmarkWriteMeter is what the write quota adds to each fallback call
// on a read-write volume the size of a real repository: 10,000 files in
// 200 directories, measured before the child runs and again after it
// (TM-FB-014). files/op is the entries each walk visits.
func BenchmarkWriteMeter(b *testing.B) {
	root := b.TempDir()
	for d := range 200 {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 50 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%02d.go", f)), []byte("package x\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	q := &overlayfs.WriteQuota{MaxBytes: 1 << 30, MaxFiles: 100_000}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m, err := newWriteMeter(ctx, q, []string{root})
		if err != nil || m == nil {
			b.Fatal(err)
		}
		if msg := m.charge(ctx, "git"); msg != "" {
			b.Fatal(msg)
		}
		if len(m.before) != 10_200 {
			b.Fatalf("walked %d entries", len(m.before))
		}
	}
	b.ReportMetric(10_200, "files/op")
}
