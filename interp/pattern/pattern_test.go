package pattern

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestQuoteMetaIsLiteral(t *testing.T) {
	ctx := context.Background()
	for _, s := range []string{"*", "a?b", "[x]", `\`, "@(a|b)", "!(x)", "+(y)", "a-b^c", "é*"} {
		p := Compile(QuoteMeta(s), ExtGlob)
		if ok, _ := p.Match(ctx, s); !ok {
			t.Errorf("QuoteMeta(%q) does not match itself", s)
		}
		if HasMeta(QuoteMeta(s), ExtGlob) {
			t.Errorf("QuoteMeta(%q) still has meta characters", s)
		}
		if Unescape(QuoteMeta(s)) != s {
			t.Errorf("Unescape(QuoteMeta(%q)) = %q", s, Unescape(QuoteMeta(s)))
		}
		if lit, ok := p.Literal(); !ok || lit != s {
			t.Errorf("Literal of QuoteMeta(%q) = %q %v", s, lit, ok)
		}
	}
	if HasMeta("[a", 0) || !HasMeta("[a]", 0) || HasMeta("@(a)", 0) || !HasMeta("@(a)", ExtGlob) || HasMeta(`\*`, 0) {
		t.Error("HasMeta")
	}
}

func TestPeriod(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		pat, s string
		want   bool
	}{
		{"*", ".hid", false}, {".*", ".hid", true}, {"?hid", ".hid", false}, {"[.]hid", ".hid", false},
		{"*hid", "x.hid", true}, {"@(.h|d)", ".h", true}, {"@(?h)", ".h", false}, {"!(a)", ".h", false},
		{"?(.)h*", ".hid", true}, {"*(?)", ".h", false}, {".*", ".", true},
	}
	for _, c := range cases {
		if got, _ := Compile(c.pat, ExtGlob|Period).Match(ctx, c.s); got != c.want {
			t.Errorf("%q vs %q with Period: %v", c.pat, c.s, got)
		}
	}
}

// TestCancel checks that extglob work on a long subject stops with the
// context instead of running its polynomial course.
func TestCancel(t *testing.T) {
	s := strings.Repeat("ab", 20000)
	p := Compile("!(*(a|b)c)!(x)*(a)+(b)", ExtGlob)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if err := p.Spans(ctx, s, true, func(int, int) bool { return true }); err == nil {
		t.Fatal("Spans ignored a cancelled context")
	}
	if _, err := p.Match(ctx, s); err == nil {
		t.Fatal("Match ignored a cancelled context")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("stopping took %v", d)
	}
}

// TestNoBacktrackingBlowup runs patterns that make naive backtracking
// exponential; they must stay fast (bounded by the test timeout).
func TestNoBacktrackingBlowup(t *testing.T) {
	ctx := context.Background()
	s := strings.Repeat("a", 5000)
	for _, pat := range []string{"*a*a*a*a*a*a*a*a*b", "+(+(a))b", "*(a|aa)*(a|aa)b", "@(*a)@(*a)@(*a)b"} {
		p := Compile(pat, ExtGlob)
		if ok, err := p.Match(ctx, s); ok || err != nil {
			t.Errorf("%q: %v %v", pat, ok, err)
		}
	}
	// 63 nodes and more leave the NFA for the set engine.
	long := strings.Repeat("?", 70) + "*"
	if ok, _ := Compile(long, 0).Match(ctx, strings.Repeat("x", 70)); !ok {
		t.Error("long pattern")
	}
	if e, _ := Compile(long, 0).Prefix(ctx, strings.Repeat("x", 80), false); e != 70 {
		t.Errorf("long pattern prefix %d", e)
	}
}

func TestDeepExtglobIsLiteral(t *testing.T) {
	// Nesting beyond maxGroupDepth is read as literal text: the innermost
	// groups stay text while the outer ones are groups around it.
	inner := strings.Repeat("@(", 200-maxGroupDepth) + "a" + strings.Repeat(")", 200-maxGroupDepth)
	pat := strings.Repeat("@(", maxGroupDepth) + inner + strings.Repeat(")", maxGroupDepth)
	p := Compile(pat, ExtGlob)
	if ok, _ := p.Match(context.Background(), inner); !ok {
		t.Error("too deep nesting should fall back to literal text")
	}
}

func TestCacheConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				p := Compile("*"+strings.Repeat("x", i%60)+fmt.Sprint(i)+"?", Flags(i%4))
				if ok, _ := p.Match(context.Background(), strings.Repeat("x", i%60)+fmt.Sprint(i)+"y"); !ok {
					t.Error("no match")
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := cache.Get().size(); n > 2*int(cache.Get().max)+16 {
		t.Fatalf("cache holds %d patterns", cache.Get().size())
	}
}

// FuzzPattern checks invariants between the modes on arbitrary input:
// no panic, spans in order and inside the subject, prefixes and suffixes
// that the pattern matches, and NFA and set engine agreeing.
func FuzzPattern(f *testing.F) {
	for _, s := range []string{"*", "a*b", "[!a-z]?", "@(a|b*)", "!(x)y", "*(ab|c)", "\\", "[[:alpha:]]", "é?"} {
		f.Add(s, "abcé.x", false)
	}
	f.Fuzz(func(t *testing.T, pat, s string, nocase bool) {
		if len(pat) > 40 || len(s) > 60 {
			return
		}
		ctx := context.Background()
		flags := ExtGlob
		if nocase {
			flags |= NoCase
		}
		p := Compile(pat, flags)
		whole, _ := p.Match(ctx, s)
		// The set engine is the reference for the NFA and the fast paths.
		ref := &Pattern{text: pat, flags: flags, nodes: p.nodes, ext: true}
		if r, _ := ref.Match(ctx, s); r != whole {
			t.Fatalf("%q vs %q: engines disagree (%v, set engine %v)", pat, s, whole, r)
		}
		for _, longest := range []bool{false, true} {
			e, _ := p.Prefix(ctx, s, longest)
			if re, _ := ref.Prefix(ctx, s, longest); re != e {
				t.Fatalf("%q vs %q prefix longest=%v: %d, set engine %d", pat, s, longest, e, re)
			}
			i, _ := p.Suffix(ctx, s, longest)
			if ri, _ := ref.Suffix(ctx, s, longest); ri != i && !strings.Contains(pat, "(") {
				t.Fatalf("%q vs %q suffix longest=%v: %d, set engine %d", pat, s, longest, i, ri)
			}
		}
		prev := 0
		p.Spans(ctx, s, true, func(st, e int) bool {
			if st < prev || e < st || e > len(s) {
				t.Fatalf("%q vs %q: span %d,%d after %d", pat, s, st, e, prev)
			}
			prev = e
			return true
		})
	})
}
