package changeset

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/bashbox/bashbox/overlayfs"
)

var (
	goSrcOnce sync.Once
	goSrcDir  string
	goSrcErr  error
)

// goSrc is a copy of the Go source tree ($GOROOT/src, about 11,000 files),
// made once per test binary and removed by TestMain.
func goSrc(b *testing.B) string {
	goSrcOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bashbox-gosrc-")
		if err != nil {
			goSrcErr = err
			return
		}
		goSrcDir = dir
		if out, err := exec.Command("cp", "-a", filepath.Join(runtime.GOROOT(), "src")+"/.", dir).CombinedOutput(); err != nil {
			goSrcErr = err
			b.Log(string(out))
		}
	})
	if goSrcErr != nil {
		b.Fatal(goSrcErr)
	}
	return goSrcDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if goSrcDir != "" {
		os.RemoveAll(goSrcDir)
	}
	os.Exit(code)
}

// goFiles lists the first n .go files of dir in path order.
func goFiles(b *testing.B, dir string, n int) []string {
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".go") {
			files = append(files, "/"+filepath.ToSlash(strings.TrimPrefix(p, dir+"/")))
		}
		return nil
	})
	sort.Strings(files)
	if len(files) < n {
		b.Fatalf("only %d .go files", len(files))
	}
	return files[:n]
}

// BenchmarkChangesGoSource computes and encodes the change set of the Go
// source tree with 1 and 1,000 files changed (a line appended to each):
// the cost follows the changed files, not the tree's 11,000. walk is the
// price of the approach not taken, one lstat walk of the whole tree.
func BenchmarkChangesGoSource(b *testing.B) {
	src := goSrc(b)
	for _, n := range []int{1, 1000} {
		host, err := overlayfs.NewHostFs(src, true)
		if err != nil {
			b.Fatal(err)
		}
		o := overlayfs.NewOverlay(host, overlayfs.NewMemFs(nil))
		for _, p := range goFiles(b, src, n) {
			f, err := o.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				b.Fatal(err)
			}
			f.Write([]byte("// changed\n"))
			f.Close()
		}
		for _, format := range []Format{Diff, Tar, JSON} {
			b.Run(string(format)+"/files="+itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				defer reportCPU(b)()
				for b.Loop() {
					set, err := FromOverlay(o)
					if err != nil || len(set.Entries) != n {
						b.Fatal(err, len(set.Entries))
					}
					if _, err := set.Encode(format, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		host.Close()
	}
	b.Run("walk-whole-tree", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			n := 0
			filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
				if _, err := d.Info(); err == nil {
					n++
				}
				return nil
			})
		}
	})
}

// reportCPU adds the process's CPU time per op (user plus system) to a
// benchmark: on a shared machine the wall time counts the waits for a
// core too.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func itoa(n int) string {
	if n == 1 {
		return "1"
	}
	return "1000"
}
