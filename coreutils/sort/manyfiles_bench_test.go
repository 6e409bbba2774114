package sort

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	stdsort "sort"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// manyFiles makes n inputs of lines random lines each, sorted when sorted
// is set (for -m).
func manyFiles(n, lines int, sorted bool) map[string]string {
	rng := rand.New(rand.NewSource(7))
	files := map[string]string{}
	for i := range n {
		ls := make([]string, lines)
		for j := range ls {
			ls[j] = fmt.Sprintf("%08d %s", rng.Intn(100_000_000), strings.Repeat("x", rng.Intn(40)))
		}
		if sorted {
			stdsort.Strings(ls)
		}
		files[fmt.Sprintf("f%04d.txt", i)] = strings.Join(ls, "\n") + "\n"
	}
	return files
}

func fileNames(files map[string]string) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	stdsort.Strings(names)
	return names
}

// BenchmarkSortManyFiles sorts (and merges, -m) 2,000 file operands of 200
// lines each: reading them must stay linear in their total size.
// BenchmarkGNUSortManyFiles times the host's GNU sort on the same data.
func BenchmarkSortManyFiles(b *testing.B) {
	for _, mode := range []string{"sort", "merge"} {
		b.Run(mode, func(b *testing.B) {
			files := manyFiles(2000, 200, mode == "merge")
			env := cmdtest.Env{Files: files}
			fsys := env.NewFS()
			args := []string{"sort"}
			if mode == "merge" {
				args = append(args, "-m")
			}
			args = append(args, fileNames(files)...)
			var total int64
			for _, data := range files {
				total += int64(len(data))
			}
			b.SetBytes(total)
			b.ResetTimer()
			for range b.N {
				var out, errb bytes.Buffer
				c := &builtins.Call{Args: args, Stdout: &out, Stderr: &errb, Dir: "/work", FS: fsys}
				if code := Run(context.Background(), c); code != 0 || int64(out.Len()) != total {
					b.Fatalf("exit %d, %d bytes out of %d: %s", code, out.Len(), total, errb.String())
				}
			}
		})
	}
}

func BenchmarkGNUSortManyFiles(b *testing.B) {
	gnu, err := exec.LookPath("sort")
	if err != nil {
		b.Skip("no host sort")
	}
	for _, mode := range []string{"sort", "merge"} {
		b.Run(mode, func(b *testing.B) {
			files := manyFiles(2000, 200, mode == "merge")
			dir := b.TempDir()
			var total int64
			for name, data := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					b.Fatal(err)
				}
				total += int64(len(data))
			}
			args := []string{}
			if mode == "merge" {
				args = append(args, "-m")
			}
			args = append(args, fileNames(files)...)
			b.SetBytes(total)
			b.ResetTimer()
			for range b.N {
				cmd := exec.Command(gnu, args...)
				cmd.Dir, cmd.Env, cmd.Stdout = dir, []string{"LC_ALL=C.UTF-8"}, io.Discard
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSortManyFiles: many operands sort and merge as one input would.
func TestSortManyFiles(t *testing.T) {
	for _, merge := range []bool{false, true} {
		files := manyFiles(300, 20, merge)
		names := fileNames(files)
		var all []string
		for _, n := range names {
			all = append(all, strings.Split(strings.TrimSuffix(files[n], "\n"), "\n")...)
		}
		stdsort.Strings(all) // the lines are ASCII: byte order is the C.UTF-8 order
		args := []string{"sort"}
		if merge {
			args = append(args, "-m")
		}
		env := cmdtest.Env{Files: files}
		res := env.Run(Run, append(args, names...)...)
		if res.Code != 0 || res.Stdout != strings.Join(all, "\n")+"\n" {
			t.Fatalf("merge=%v: exit %d, %d bytes, stderr %q", merge, res.Code, len(res.Stdout), res.Stderr)
		}
	}
}
