package posixre

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TM-RES-004: a catastrophic backtracking match gives up after
// MatchLimit and reports it; once the context is done no match runs.
func TestBacktrackingIsBounded(t *testing.T) {
	subject := []byte(strings.Repeat("a", 40) + "!")
	for _, tc := range []struct {
		pat string
		syn Syntax
	}{{`^(a+)+$`, PCRE}, {`^(a|aa)+\1\1b`, ERE}, {`^\(a*\)*\1b`, BRE}} {
		re, err := Compile(tc.pat, tc.syn, Flags{})
		if err != nil {
			t.Fatal(err)
		}
		var limited atomic.Int32
		ctx, cancel := context.WithCancel(context.Background())
		re.Bound(ctx, func() { limited.Add(1) })
		start := time.Now()
		if re.Match(subject) || re.FindIndex(subject) != nil || len(re.FindAllIndex(subject, -1)) != 0 {
			t.Errorf("%s matched", tc.pat)
		}
		if d := time.Since(start); d > 3*MatchLimit+time.Second {
			t.Errorf("%s: %v for three matches", tc.pat, d)
		}
		if tc.syn == PCRE && limited.Load() != 1 {
			t.Errorf("%s: onLimit called %d times", tc.pat, limited.Load())
		}
		cancel()
		start = time.Now()
		for range 100 {
			re.Match(subject)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("%s: matches still run after cancellation (%v)", tc.pat, d)
		}
	}
	// Ordinary matches are unaffected.
	re, _ := Compile(`(a+)+b`, PCRE, Flags{})
	re.Bound(context.Background(), func() { t.Error("limit hit") })
	if !re.Match([]byte("aaab")) {
		t.Error("no match")
	}
}
