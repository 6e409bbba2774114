package sed_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/sed"
)

// BenchmarkSed runs scripts over SED_BENCH_FILE (skipped when unset).
func BenchmarkSed(b *testing.B) {
	name := os.Getenv("SED_BENCH_FILE")
	if name == "" {
		b.Skip("SED_BENCH_FILE not set")
	}
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	env := cmdtest.Env{}
	fsys := env.NewFS()
	for _, script := range [][]string{
		{"s/foo/bar/"}, {"s/foo/bar/g"}, {"-n", "/hello.*world/p"}, {"s/\\(a\\)\\(l\\)/\\2\\1/g"},
		{"-E", "s/([a-z]+) ([a-z]+)/\\2 \\1/"}, {"p"}, {"$!N;P;D"}, {"y/abc/xyz/"}, {"-n", "$="}, {"s/x*/-/g"},
	} {
		b.Run(script[len(script)-1], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c := &builtins.Call{Args: append([]string{"sed"}, script...), Stdin: bytes.NewReader(data),
					Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: fsys, Env: []string{"LANG=C.UTF-8"}}
				if code := sed.Run(context.Background(), c); code != 0 {
					b.Fatal(code)
				}
			}
		})
	}
}
