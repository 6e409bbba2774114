package grep

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// TestParallelMatchesSequential: a recursive search with workers writes
// exactly what the sequential one writes, with standard output and
// standard error merged into one stream (so where each message falls
// counts), over a tree with many files, binary files, a file too large
// for the workers, dangling links and a directory loop.
func TestParallelMatchesSequential(t *testing.T) {
	files := map[string]string{}
	for d := 0; d < 6; d++ {
		for f := 0; f < 40; f++ {
			var b strings.Builder
			for l := 0; l < (d*7+f)%50; l++ {
				fmt.Fprintf(&b, "line %d of f%d: alpha beta %d func (x *T) Get%d() error\n", l, f, l*f, l)
			}
			ext := ".go"
			if f%3 == 0 {
				ext = ".txt"
			}
			files[fmt.Sprintf("t/d%d/f%02d%s", d, f, ext)] = b.String()
		}
	}
	files["t/bin.dat"] = "alpha\x00beta\nmore alpha\n"
	files["t/big.go"] = strings.Repeat("alpha and some padding text for a large file\n", 25000) // > aheadMaxSize
	files["t/d2/dangling"] = "->nowhere"
	files["t/d3/loop"] = "->.."
	files["t/d4/sub/deep.go"] = "alpha deep\n"
	run := mergedRun((&cmdtest.Env{Files: files}).NewFS())
	for _, args := range [][]string{
		{"-r", "alpha", "t"}, {"-rn", "beta 1", "t"}, {"-rc", "alpha", "t"}, {"-rl", "Get1", "t"}, {"-rL", "Get1", "t"},
		{"-ro", "Get[0-9]*", "t"}, {"-rb", "beta", "t"}, {"-rh", "line 3 ", "t"}, {"-rZl", "alpha", "t"},
		{"-rv", "alpha", "t"}, {"-rwi", "ALPHA", "t"}, {"-rm1", "alpha", "t"}, {"-r", "--include=*.go", "-E", `func \([a-z]+ \*?[A-Z]`, "t"},
		{"-R", "alpha", "t"}, {"-rs", "alpha", "t"}, {"-r", "--binary-files=text", "alpha", "t"}, {"-rc", "nomatch", "t"},
		{"-r", "alpha", "t/d1", "t/nosuch", "t/d2"}, {"-r", "--color=always", "beta", "t/d0"},
		// many operands, as xargs passes them: errors, a directory, a file
		// too large for the workers, standard input and excluded names in
		// between
		{"-c", "alpha", "t/d0/f01.go", "t/nosuch", "t/d0", "t/big.go", "t/d1/f02.go", "-", "t/bin.dat", "t/d2/dangling", "t/d0/f04.go"},
		{"-n", "--exclude=*.txt", "beta 1", "t/d0/f00.txt", "t/d0/f01.go", "t/d3/loop", "t/d1/f01.go", "t/d4/sub/deep.go"},
		{"-l", "Get1", "t/d0/f01.go", "t/d0/f02.go", "t/d0/f03.txt", "t/d0/f04.go"}, {"-L", "Get1", "t/d0/f01.go", "t/d5/f07.go"},
		{"-m1", "-o", "Get[0-9]*", "t/d1/f05.go", "t/d2/f06.go", "t/d3/f07.go"}, {"-s", "alpha", "t/x", "t/d1/f05.go", "t/y"},
	} {
		want, wantCode := run(1, args)
		got, gotCode := run(2, args)
		if got != want || gotCode != wantCode {
			t.Errorf("grep %q: parallel differs (exit %d, want %d)\n got %.300q\nwant %.300q", args, gotCode, wantCode, got, want)
		}
	}
}

// TestListersMatchSequential: with directories read ahead of the walk, a
// recursive search writes exactly what the walk that lists each directory
// itself writes, over a tree deep and wide enough to fill the listers'
// queue, with excluded directories, -m quitting early, a search without
// file workers (context lines), -T (which lists sizes) and a directory
// loop under -R.
func TestListersMatchSequential(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 400; i++ {
		files[fmt.Sprintf("t/a%d/b%d/c%d/f.go", i%7, i%13, i)] = fmt.Sprintf("package c%d\nfunc F%d() {}\n", i, i%10)
		if i%5 == 0 {
			files[fmt.Sprintf("t/a%d/b%d/n%d.txt", i%7, i%13, i)] = "func in text\n"
		}
	}
	files["t/a1/gone"] = "->../nowhere"
	files["t/a2/up"] = "->.."
	run := mergedRun((&cmdtest.Env{Files: files}).NewFS())
	for _, args := range [][]string{
		{"-r", "func F3", "t"}, {"-rc", "func", "--include=*.go", "t"}, {"-rl", "package", "--exclude-dir=b1*", "t"},
		{"-r", "-m1", "F7", "t", "t/a3"}, {"-rn", "-A1", "package c1", "t"}, {"-rT", "F2", "t/a4"}, {"-R", "F9", "t/a2"},
		{"-rq", "c399", "t"}, {"-r", "nomatch", "t", "t/nosuch"}, {"-r", "F1"},
	} {
		want, wantCode := run(1, args)
		for _, workers := range []int{2, 4} {
			if got, code := run(workers, args); got != want || code != wantCode {
				t.Errorf("grep %q with %d workers: exit %d (want %d)\n got %.300q\nwant %.300q", args, workers, code, wantCode, got, want)
			}
		}
	}
}

// mergedRun runs grep over fsys with standard output and standard error
// merged, so that where each message falls counts.
func mergedRun(fsys builtins.FS) func(workers int, args []string) (string, int) {
	return func(workers int, args []string) (string, int) {
		var merged bytes.Buffer
		c := &builtins.Call{Args: append([]string{"grep"}, args...), Stdin: strings.NewReader(""), Stdout: &merged, Stderr: &merged,
			Env: []string{"LANG=C.UTF-8"}, Dir: "/work", FS: fsys, Workers: workers}
		code := Run(context.Background(), c)
		return merged.String(), code
	}
}
