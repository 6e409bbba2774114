package bashbox

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var markerRE = regexp.MustCompile(`(?m)^\[bashbox: output truncated: (\d+) bytes omitted\]\n`)

// TestCaptureCutsAtLineBoundaries: whatever the line lengths, write sizes
// and budget, the kept text is a run of whole lines from the start, the
// marker on a line of its own, and a run of whole lines up to the end.
func TestCaptureCutsAtLineBoundaries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 500 {
		var in strings.Builder
		for i := range 20 + rng.IntN(200) {
			fmt.Fprintf(&in, "%d:%s\n", i, strings.Repeat("x", rng.IntN(60)))
		}
		input := in.String()
		limit := int64(400 + rng.IntN(len(input))) // a quarter of it is more than a line
		c := newCapture(limit, nil, true, nil)
		for rest := input; rest != ""; {
			k := min(len(rest), 1+rng.IntN(100))
			if rng.IntN(3) == 0 { // often one line per write, as echo does
				if i := strings.IndexByte(rest, '\n'); i >= 0 {
					k = i + 1
				}
			}
			c.Write([]byte(rest[:k]))
			rest = rest[k:]
		}
		got, truncated := c.finish()
		if int64(len(input)) <= limit {
			if got != input || truncated {
				t.Fatalf("iter %d: untruncated output changed", iter)
			}
			continue
		}
		loc := markerRE.FindStringSubmatchIndex(got)
		if loc == nil || !truncated {
			t.Fatalf("iter %d: no marker line in %q", iter, got)
		}
		head, tail := got[:loc[0]], got[loc[1]:]
		omitted, _ := strconv.Atoi(got[loc[2]:loc[3]])
		if !strings.HasPrefix(input, head) || (head != "" && !strings.HasSuffix(head, "\n")) {
			t.Fatalf("iter %d (limit %d): head %q is not whole lines from the start", iter, limit, head)
		}
		if !strings.HasSuffix(input, tail) || (len(tail) < len(input) && input[len(input)-len(tail)-1] != '\n') {
			t.Fatalf("iter %d (limit %d): tail %q does not start at a line", iter, limit, tail)
		}
		if omitted != len(input)-len(head)-len(tail) || omitted <= 0 {
			t.Fatalf("iter %d: marker says %d omitted, really %d", iter, omitted, len(input)-len(head)-len(tail))
		}
		if int64(len(head)+len(tail)) > limit+lineSlack {
			t.Fatalf("iter %d: kept %d bytes for a budget of %d", iter, len(head)+len(tail), limit)
		}
	}
}

// TestCaptureOneLongLine: text without line ends is still cut to the
// budget, since there is no line to keep whole.
func TestCaptureOneLongLine(t *testing.T) {
	c := newCapture(100, nil, true, nil)
	c.Write([]byte(strings.Repeat("a", 1000)))
	got, truncated := c.finish()
	want := strings.Repeat("a", 75) + "\n[bashbox: output truncated: 900 bytes omitted]\n" + strings.Repeat("a", 25)
	if !truncated || got != want {
		t.Fatalf("got %q", got)
	}
}
