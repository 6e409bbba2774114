package grep

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

var (
	benchOnce sync.Once
	benchData []byte
)

// benchInput is ~50 MB of log-like lines; "needle" appears on 1 line in
// 10000, "ERROR" on 1 in 50.
func benchInput() []byte {
	benchOnce.Do(func() {
		var b bytes.Buffer
		words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "request", "served", "user", "cache", "miss"}
		seed := uint32(1)
		for i := 0; b.Len() < 50<<20; i++ {
			seed = seed*1664525 + 1013904223
			level := "INFO"
			if i%50 == 7 {
				level = "ERROR"
			}
			fmt.Fprintf(&b, "2024-01-%02d 12:%02d:%02d %s [worker-%d] %s %s %s id=%d",
				i%28+1, i/60%60, i%60, level, seed%16, words[seed%10], words[(seed>>4)%10], words[(seed>>8)%10], seed)
			if i%10000 == 5000 {
				b.WriteString(" needle")
			}
			b.WriteByte('\n')
		}
		benchData = b.Bytes()
		if p := os.Getenv("GREP_BENCH_FILE"); p != "" {
			os.WriteFile(p, benchData, 0o644)
		}
	})
	return benchData
}

func benchGrep(b *testing.B, args ...string) {
	data := benchInput()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := &builtins.Call{
			Args: append([]string{"grep"}, args...), Stdin: bytes.NewReader(data),
			Stdout: io.Discard, Stderr: io.Discard, Env: []string{"LANG=C.UTF-8"}, Dir: "/",
		}
		if code := Run(context.Background(), c); code > 1 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkGrepLiteral measures the literal fast paths over ~50 MB.
func BenchmarkGrepLiteral(b *testing.B) {
	b.Run("rare", func(b *testing.B) { benchGrep(b, "needle") })
	b.Run("common", func(b *testing.B) { benchGrep(b, "ERROR") })
	b.Run("count", func(b *testing.B) { benchGrep(b, "-c", "ERROR") })
	b.Run("n", func(b *testing.B) { benchGrep(b, "-n", "ERROR") })
	b.Run("multi", func(b *testing.B) { benchGrep(b, "-F", "-e", "needle", "-e", "zzyzx", "-e", "qqq") })
	b.Run("invert-count", func(b *testing.B) { benchGrep(b, "-vc", "INFO") })
}

// BenchmarkGrepRegex measures regular expression searches.
func BenchmarkGrepRegex(b *testing.B) {
	b.Run("must-literal", func(b *testing.B) { benchGrep(b, "-c", "ERROR.*gamma") })
	b.Run("class", func(b *testing.B) { benchGrep(b, "-c", "id=[0-9]*99$") })
	b.Run("ignore-case", func(b *testing.B) { benchGrep(b, "-ci", "needle") })
	b.Run("word", func(b *testing.B) { benchGrep(b, "-cw", "miss") })
	b.Run("ere-alt", func(b *testing.B) { benchGrep(b, "-cE", "needle|zzyzx") })
	b.Run("no-literal", func(b *testing.B) { benchGrep(b, "-cE", "[0-9]{3}[a-c]") })
	b.Run("backref", func(b *testing.B) { benchGrep(b, "-c", `\(ab\)\1`) })
}
