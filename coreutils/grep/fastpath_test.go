package grep

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
)

// TestIndexRare checks indexRare against bytes.Index: needles whose rare
// byte is common in the haystack (the fallback), at both ends, absent,
// overlapping, and random ones over a small alphabet.
func TestIndexRare(t *testing.T) {
	cases := []struct{ hay, needle string }{
		{"func (x) f() {}\nfunc (r *T) Do()", "func ("},
		{strings.Repeat("((((((((", 100) + "func (", "func ("},
		{strings.Repeat("xxxxxxxx", 100), "context"},
		{"context", "context"},
		{"contex", "context"},
		{"", "ab"},
		{"ab", "ab"},
		{"aab", "ab"},
		{strings.Repeat("ab", 500) + "abx", "abx"},
	}
	for _, c := range cases {
		want := bytes.Index([]byte(c.hay), []byte(c.needle))
		if got := indexRare([]byte(c.hay), []byte(c.needle), rarestByte([]byte(c.needle))); got != want {
			t.Errorf("indexRare(%.40q, %q) = %d, want %d", c.hay, c.needle, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		hay := make([]byte, rng.IntN(300))
		for i := range hay {
			hay[i] = "abx("[rng.IntN(4)]
		}
		needle := make([]byte, 1+rng.IntN(5))
		for i := range needle {
			needle[i] = "abx("[rng.IntN(4)]
		}
		for r := range needle {
			if got, want := indexRare(hay, needle, r), bytes.Index(hay, needle); got != want {
				t.Fatalf("indexRare(%q, %q, %d) = %d, want %d", hay, needle, r, got, want)
			}
		}
	}
}

func TestRarestByte(t *testing.T) {
	for s, want := range map[string]int{"func (": 5, "context": 5, "e": 0, "zz": 0} {
		if got := rarestByte([]byte(s)); got != want {
			t.Errorf("rarestByte(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestStarSuffix checks that the *EXT shortcut of --include and --exclude
// answers as the glob matcher does, for base names and command-line paths.
func TestStarSuffix(t *testing.T) {
	patterns := []string{"*.go", "*go", "*.", "*a.b", "*.g?", "*.[ch]", `*\.go`, "*", "**.go", "*é"}
	names := []string{"a.go", ".go", "go", "a.go.txt", "dir/a.go", "dir/x.c", "a.", "xa.b", "a.b", "é.go", "\xff.go", "a.gó", "xé", ""}
	for _, p := range patterns {
		for _, n := range names {
			for _, cl := range []bool{false, true} {
				want := glob.Match(p, n, 0)
				if cl && !want {
					for i := 0; i+1 < len(n); i++ {
						if n[i] == '/' && n[i+1] != '/' && glob.Match(p, n[i+1:], 0) {
							want = true
						}
					}
				}
				if got := nameMatches(p, n, cl); got != want {
					t.Errorf("nameMatches(%q, %q, %v) = %v, want %v", p, n, cl, got, want)
				}
			}
		}
	}
}
