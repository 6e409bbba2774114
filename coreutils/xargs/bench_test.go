package xargs

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

// BenchmarkXargsDispatch feeds xargs 10,000 file names, find's output for
// a source tree, and runs a command that does nothing: the cost of reading,
// splitting and batching the arguments and of dispatching the batches.
func BenchmarkXargsDispatch(b *testing.B) {
	var in strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&in, "./src/pkg%03d/internal/file_%04d.go\n", i%300, i)
	}
	input := in.String()
	batches := 0
	exec := func(_ context.Context, c *builtins.Call) int { batches++; return 0 }
	b.ReportAllocs()
	for b.Loop() {
		c := &builtins.Call{
			Args: []string{"xargs", "grep", "-c", "^func "}, Stdin: strings.NewReader(input),
			Stdout: io.Discard, Stderr: io.Discard, Dir: "/work", Exec: exec,
		}
		if code := Run(context.Background(), c); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	if batches == 0 {
		b.Fatal("no command ran")
	}
}
