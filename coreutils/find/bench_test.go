package find

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// benchTree builds a tree of 10,000 files in 100 directories (plus a
// few levels of nesting) in a memory filesystem.
func benchTree(b *testing.B) builtins.FS {
	e := cmdtest.Env{Files: map[string]string{}}
	fsys := e.NewFS()
	for d := 0; d < 100; d++ {
		dir := fmt.Sprintf("/work/tree/d%02d/sub", d)
		fsys.MkdirAll(dir, 0o755)
		for i := 0; i < 100; i++ {
			f, err := fsys.Create(fmt.Sprintf("%s/file%03d.txt", dir, i))
			if err != nil {
				b.Fatal(err)
			}
			f.Write([]byte("x"))
			f.Close()
		}
	}
	return fsys
}

// hostTree is benchTree's shape on the host, mounted read-only at /work
// as the bench's corpus is: the walk goes through the host layer.
func hostTree(b *testing.B) builtins.FS {
	dir := b.TempDir()
	for d := 0; d < 100; d++ {
		sub := filepath.Join(dir, "tree", fmt.Sprintf("d%02d", d), "sub")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < 100; i++ {
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("file%03d.txt", i)), []byte("x"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	table, err := volumes.NewTable([]volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadOnly}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { table.Close() })
	return table.Namespace(volumes.Options{Quota: &overlayfs.Quota{}, Home: "/home/user"})
}

func benchFind(b *testing.B, args ...string) { benchFindIn(b, benchTree(b), args...) }

func benchFindIn(b *testing.B, fsys builtins.FS, args ...string) { benchFindWith(b, fsys, 0, args...) }

// benchFindWith runs find with the call's Workers set (0: the default,
// which reads directories ahead on a machine of several CPUs).
func benchFindWith(b *testing.B, fsys builtins.FS, workers int, args ...string) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := &builtins.Call{
			Args: append([]string{"find"}, args...), Stdin: eofReader{}, Stdout: io.Discard, Stderr: io.Discard,
			Env: []string{"LANG=C.UTF-8"}, Dir: "/work", FS: fsys, Workers: workers,
		}
		if code := Run(context.Background(), c); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

func BenchmarkFindPrint(b *testing.B)  { benchFind(b, "tree") }
func BenchmarkFindName(b *testing.B)   { benchFind(b, "tree", "-name", "*7.txt") }
func BenchmarkFindType(b *testing.B)   { benchFind(b, "tree", "-type", "f", "-size", "-2") }
func BenchmarkFindPrintf(b *testing.B) { benchFind(b, "tree", "-printf", "%p %s %m\n") }
func BenchmarkFindFollow(b *testing.B) { benchFind(b, "-L", "tree") }
func BenchmarkFindRegex(b *testing.B)  { benchFind(b, "tree", "-regex", ".*file0[0-4].*") }

// The same walks over a host volume: what find . -type f and find -size
// cost on a real tree.
func BenchmarkFindHostType(b *testing.B) { benchFindIn(b, hostTree(b), "tree", "-type", "f") }
func BenchmarkFindHostSize(b *testing.B) {
	benchFindIn(b, hostTree(b), "tree", "-type", "f", "-size", "+100k")
}

// The host walk listing every directory itself, for comparison with
// BenchmarkFindHostSize (read ahead): compare CPU time, not only ns/op.
func BenchmarkFindHostSizeSequential(b *testing.B) {
	benchFindWith(b, hostTree(b), 1, "tree", "-type", "f", "-size", "+100k")
}
