package grep

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
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

// literalCases and regexCases are the searches both the sandbox's grep and
// GNU grep are timed on.
var literalCases = [][]string{
	{"rare", "needle"}, {"common", "ERROR"}, {"count", "-c", "ERROR"}, {"n", "-n", "ERROR"},
	{"multi", "-F", "-e", "needle", "-e", "zzyzx", "-e", "qqq"}, {"invert-count", "-vc", "INFO"},
}

var regexCases = [][]string{
	{"must-literal", "-c", "ERROR.*gamma"}, {"class", "-c", "id=[0-9]*99$"}, {"ignore-case", "-ci", "needle"},
	{"word", "-cw", "miss"}, {"ere-alt", "-cE", "needle|zzyzx"}, {"no-literal", "-cE", "[0-9]{3}[a-c]"},
	{"backref", "-c", `\(ab\)\1`},
}

// BenchmarkGrepLiteral measures the literal fast paths over ~50 MB.
func BenchmarkGrepLiteral(b *testing.B) {
	for _, tc := range literalCases {
		b.Run(tc[0], func(b *testing.B) { benchGrep(b, tc[1:]...) })
	}
}

// BenchmarkGrepRegex measures regular expression searches.
func BenchmarkGrepRegex(b *testing.B) {
	for _, tc := range regexCases {
		b.Run(tc[0], func(b *testing.B) { benchGrep(b, tc[1:]...) })
	}
}

// BenchmarkGNUGrep times the host's GNU grep on the same input and
// searches (one process per run, reading a file), so its MB/s stand next
// to the sandbox's: go test -bench 'Grep' ./coreutils/grep
func BenchmarkGNUGrep(b *testing.B) {
	gnu, err := exec.LookPath("grep")
	if err != nil {
		b.Skip("no host grep")
	}
	file := b.TempDir() + "/input"
	if err := os.WriteFile(file, benchInput(), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, tc := range append(append([][]string{}, literalCases...), regexCases...) {
		b.Run(tc[0], func(b *testing.B) {
			b.SetBytes(int64(len(benchInput())))
			for b.Loop() {
				cmd := exec.Command(gnu, append(tc[1:], file)...)
				cmd.Env = []string{"LANG=C.UTF-8"}
				cmd.Stdout = io.Discard
				if err := cmd.Run(); err != nil {
					if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
