package diff_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

func benchFiles(lines, changes, alphabet int) (string, string) {
	r := rand.New(rand.NewSource(1))
	a := make([]string, lines)
	for i := range a {
		a[i] = fmt.Sprintf("line %d\n", r.Intn(alphabet))
	}
	b := append([]string(nil), a...)
	for k := 0; k < changes; k++ {
		b[r.Intn(len(b))] = fmt.Sprintf("changed %d\n", k)
	}
	return strings.Join(a, ""), strings.Join(b, "")
}

// BenchmarkFewChanges: a large file with scattered edits, the common case.
func BenchmarkFewChanges(b *testing.B) {
	x, y := benchFiles(50000, 500, 1<<30)
	for i := 0; i < b.N; i++ {
		ourDiff(x, y, "-u")
	}
}

// BenchmarkUnrelated: two unrelated files of a few distinct lines, the
// worst case for the O(ND) search.
func BenchmarkUnrelated(b *testing.B) {
	x, _ := benchFiles(5000, 0, 8)
	y, _ := benchFiles(5000, 0, 9)
	for i := 0; i < b.N; i++ {
		ourDiff(x, y)
	}
}
