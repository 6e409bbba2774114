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
	fsys := (&cmdtest.Env{Files: files}).NewFS()
	run := func(workers int, args []string) (string, int) {
		var merged bytes.Buffer
		c := &builtins.Call{Args: append([]string{"grep"}, args...), Stdin: strings.NewReader(""), Stdout: &merged, Stderr: &merged,
			Env: []string{"LANG=C.UTF-8"}, Dir: "/work", FS: fsys, Workers: workers}
		code := Run(context.Background(), c)
		return merged.String(), code
	}
	for _, args := range [][]string{
		{"-r", "alpha", "t"}, {"-rn", "beta 1", "t"}, {"-rc", "alpha", "t"}, {"-rl", "Get1", "t"}, {"-rL", "Get1", "t"},
		{"-ro", "Get[0-9]*", "t"}, {"-rb", "beta", "t"}, {"-rh", "line 3 ", "t"}, {"-rZl", "alpha", "t"},
		{"-rv", "alpha", "t"}, {"-rwi", "ALPHA", "t"}, {"-rm1", "alpha", "t"}, {"-r", "--include=*.go", "-E", `func \([a-z]+ \*?[A-Z]`, "t"},
		{"-R", "alpha", "t"}, {"-rs", "alpha", "t"}, {"-r", "--binary-files=text", "alpha", "t"}, {"-rc", "nomatch", "t"},
		{"-r", "alpha", "t/d1", "t/nosuch", "t/d2"}, {"-r", "--color=always", "beta", "t/d0"},
	} {
		want, wantCode := run(1, args)
		got, gotCode := run(2, args)
		if got != want || gotCode != wantCode {
			t.Errorf("grep %q: parallel differs (exit %d, want %d)\n got %.300q\nwant %.300q", args, gotCode, wantCode, got, want)
		}
	}
}
