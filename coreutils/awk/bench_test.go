package awk

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func benchInput(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "line%d %d field%d\n", i, i%97, i%13)
	}
	return b.String()
}

func BenchmarkSumColumn(b *testing.B) {
	in := benchInput(200000)
	fsys := (&cmdtest.Env{Files: map[string]string{"in.txt": in}}).NewFS()
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		c := &builtins.Call{Args: []string{"awk", "{s += $2; n[$3]++} END {print s, length(n)}", "in.txt"},
			Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: fsys}
		if Run(context.Background(), c) != 0 {
			b.Fatal("failed")
		}
	}
}

func BenchmarkPrintFields(b *testing.B) {
	in := benchInput(200000)
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		c := &builtins.Call{Args: []string{"awk", "-v", "OFS=,", "{print $3, $1}"},
			Stdin: strings.NewReader(in), Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", FS: (&cmdtest.Env{}).NewFS()}
		if Run(context.Background(), c) != 0 {
			b.Fatal("failed")
		}
	}
}
