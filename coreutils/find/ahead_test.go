package find

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// TestListersMatchSequential: with directories read ahead by listers, find
// writes exactly what the walk that lists each directory itself writes
// (standard output and standard error merged, so where each message falls
// counts), over a host tree deep and wide enough to fill the listers'
// queue, with -prune, -quit, -maxdepth, stat predicates and a directory
// that vanishes under the walk's feet being a dangling link.
func TestListersMatchSequential(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 300; i++ {
		p := filepath.Join(dir, fmt.Sprintf("t/a%d/b%d/c%d", i%7, i%13, i))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "f.go"), bytes.Repeat([]byte("x"), i*37), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../nowhere", filepath.Join(dir, "t/a1/gone")); err != nil {
		t.Fatal(err)
	}
	table := hostTable(t, dir, volumes.ReadOnly)
	run := func(workers int, args []string) (string, int) {
		ns := table.Namespace(volumes.Options{Quota: &overlayfs.Quota{}, Home: "/home/user"})
		var merged bytes.Buffer
		c := &builtins.Call{Args: append([]string{"find"}, args...), Stdin: strings.NewReader(""), Stdout: &merged,
			Stderr: &merged, Env: []string{"LANG=C.UTF-8"}, Dir: "/work", FS: ns, Workers: workers}
		code := Run(context.Background(), c)
		return merged.String(), code
	}
	for _, args := range [][]string{
		{"t"}, {"t", "-type", "f", "-size", "+3k"}, {"t", "-name", "b3", "-prune", "-o", "-type", "d", "-print"},
		{"t", "-maxdepth", "2"}, {"t", "-mindepth", "3", "-maxdepth", "3", "-name", "c1*"}, {"t", "-name", "c150", "-quit"},
		{"t", "-depth", "-empty"}, {"t/a1", "nosuch", "t/a2", "-newer", "t/a1"}, {"-H", "t/a1/gone", "t/a3", "-printf", "%d %p %s\n"},
		{"t", "-type", "d", "-links", "2", "-ls"},
	} {
		want, wantCode := run(1, args)
		for _, workers := range []int{2, 4} {
			if got, code := run(workers, args); got != want || code != wantCode {
				t.Errorf("find %q with %d workers: exit %d (want %d)\n got %.300q\nwant %.300q", args, workers, code, wantCode, got, want)
			}
		}
	}
}

// TestListersOnlyWhenNothingChanges: an expression that acts on the tree
// keeps the walk listing each directory when it reaches it.
func TestListersOnlyWhenNothingChanges(t *testing.T) {
	for expr, want := range map[string]bool{
		"-name x -print": true, "-size +1k -ls": true, "-exec rm {} ;": false, "-name x -delete": false,
		"-name x -o -okdir rm {} ;": false,
	} {
		f := &finder{c: &builtins.Call{Workers: 4}, maxDepth: -1}
		if _, done := f.parseArgs(append([]string{"."}, strings.Fields(expr)...)); done {
			t.Fatalf("%s: parse failed", expr)
		}
		ls := f.startListers()
		if (ls != nil) != want {
			t.Errorf("%s: listers %v, want %v", expr, ls != nil, want)
		}
		if ls != nil {
			ls.End()
		}
		f.closeFiles()
	}
}
