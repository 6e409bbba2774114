package readahead

import (
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// tree is a directory tree of 3 levels of 5 directories, each with a file.
func tree() fstest.MapFS {
	m := fstest.MapFS{}
	for i := 0; i < 125; i++ {
		m[fmt.Sprintf("d%d/e%d/f%d/x", i/25, i/5%5, i%5)] = &fstest.MapFile{Data: []byte("x")}
	}
	return m
}

func options(m fstest.MapFS) Options {
	return Options{
		Read: func(dir string) ([]fs.FileInfo, error) {
			ents, err := m.ReadDir(dir)
			var list []fs.FileInfo
			for _, e := range ents {
				fi, _ := e.Info()
				list = append(list, fi)
			}
			return list, err
		},
		Join: func(dir, name string) string {
			if dir == "." {
				return name
			}
			return dir + "/" + name
		},
		Descend: func(depth int, fi fs.FileInfo) bool { return fi.IsDir() && depth < 3 },
	}
}

// walk lists dir and below in walk order, through ls when not nil, and
// stops after quitAfter directories (when > 0).
func walk(o Options, ls *Listers, dir string, depth int, l *Listing, seen *[]string, quitAfter int) {
	if quitAfter > 0 && len(*seen) >= quitAfter {
		return
	}
	var list []fs.FileInfo
	var kids []*Listing
	var err error
	if l != nil {
		list, kids, err = ls.Take(l)
	} else {
		list, err = o.Read(dir)
	}
	if ls != nil && kids == nil && err == nil {
		kids = ls.Queue(depth, dir, list)
	}
	names := []string{}
	for _, fi := range list {
		names = append(names, fi.Name())
	}
	*seen = append(*seen, dir+": "+strings.Join(names, " "))
	for i, fi := range list {
		var k *Listing
		if kids != nil {
			k = kids[i]
		}
		if o.Descend(depth+1, fi) {
			walk(o, ls, o.Join(dir, fi.Name()), depth+1, k, seen, quitAfter)
		}
	}
	for _, k := range kids {
		if ls != nil {
			ls.DropTree(k)
		}
	}
}

// TestListingsMatchAlone: with any number of listers, the walk meets the
// same listings in the same order as a walk that reads each directory
// itself, also when it quits early, and no lister outlives End.
func TestListingsMatchAlone(t *testing.T) {
	m := tree()
	o := options(m)
	before := runtime.NumGoroutine()
	for _, quit := range []int{0, 7} {
		var want []string
		walk(o, nil, ".", 0, nil, &want, quit)
		for _, n := range []int{0, 1, 3} {
			ls := Start(n, o)
			if (ls == nil) != (n == 0) {
				t.Fatalf("Start(%d): listers %v", n, ls != nil)
			}
			var got []string
			walk(o, ls, ".", 0, nil, &got, quit)
			if ls != nil {
				if ls.held != 0 && quit == 0 {
					t.Errorf("%d listers: %d listings still held after the walk", n, ls.held)
				}
				ls.End()
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d listers, quit after %d: walk met\n%q\nwant\n%q", n, quit, got, want)
			}
		}
	}
	cmdtest.Settled(t, before, "after End")
}
