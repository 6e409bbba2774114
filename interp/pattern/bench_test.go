package pattern

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// The loop of the engine issue: ${x#*/} ${y%.go} ${z//e/E} [[ $w == dEf* ]].
// Each benchmark compiles through the cache, as the engine will per call.

func BenchmarkPrefixStarSlash(b *testing.B) {
	ctx := context.Background()
	x := "src/github.com/bashbox/file.go"
	for b.Loop() {
		e, _ := Compile("*/", 0).Prefix(ctx, x, false)
		_ = x[e:]
	}
}

func BenchmarkSuffixLiteral(b *testing.B) {
	ctx := context.Background()
	y := "src/github.com/bashbox/file.go"
	for b.Loop() {
		i, _ := Compile(".go", 0).Suffix(ctx, y, false)
		_ = y[:i]
	}
}

func BenchmarkReplaceAllLiteral(b *testing.B) {
	ctx := context.Background()
	z := "the quick brown fox jumps over the lazy dog here"
	for b.Loop() {
		var sb strings.Builder
		prev := 0
		Compile("e", 0).Spans(ctx, z, true, func(st, e int) bool {
			sb.WriteString(z[prev:st])
			sb.WriteString("E")
			prev = e
			return true
		})
		sb.WriteString(z[prev:])
		_ = sb.String()
	}
}

func BenchmarkMatchPrefix(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		Compile("dEf*", 0).Match(ctx, "dEfault")
	}
}

func BenchmarkMatchClassNFA(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		Compile("*[0-9]?.[ch]", 0).Match(ctx, "source_file_42x.c")
	}
}

func BenchmarkSuffixNFALong(b *testing.B) {
	ctx := context.Background()
	s := strings.Repeat("abcdefgh/", 1000) + "x.go"
	for b.Loop() {
		Compile("/[a-z]*", 0).Suffix(ctx, s, true)
	}
}

func BenchmarkExtglobMatch(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		Compile("+([a-z])@(.go|.txt)", ExtGlob).Match(ctx, "filename.txt")
	}
}

// BenchmarkUpstreamRegexpPrefix approximates what mvdan.cc/sh/v3/expand
// does today for ${x#*/}: translate the pattern to a regular expression,
// compile it, and run it, on every expansion.
func BenchmarkUpstreamRegexpPrefix(b *testing.B) {
	x := "src/github.com/bashbox/file.go"
	for b.Loop() {
		re := regexp.MustCompile(`^(?s).*?/`)
		if loc := re.FindStringIndex(x); loc != nil {
			_ = x[loc[1]:]
		}
	}
}

// ${x//+(0)/d} over 100 KB: one run of zeros, and many short runs.
func benchReplaceExtRun(b *testing.B, x string) {
	ctx := context.Background()
	for b.Loop() {
		n := 0
		Compile("+(0)", ExtGlob).Spans(ctx, x, true, func(st, e int) bool { n++; return true })
	}
}

func BenchmarkReplaceExtGlobOneRun(b *testing.B) {
	benchReplaceExtRun(b, strings.Repeat("0", 100_000))
}

func BenchmarkReplaceExtGlobManyRuns(b *testing.B) {
	benchReplaceExtRun(b, strings.Repeat("00a", 33_000))
}
