package sort

import (
	"bytes"
	"container/heap"
	"context"
	"fmt"
	"strconv"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// mergeInputs merges already sorted inputs: at each step the smallest
// current line, the earliest input winning ties. The inputs' cursors are
// kept in a heap, so each line costs log(inputs) comparisons.
func (s *sorter) mergeInputs(recs []rec, bounds []int) []rec {
	h := &mergeHeap{c: &comparer{s: s}, recs: recs}
	start := 0
	for _, b := range bounds {
		if b > start {
			h.curs = append(h.curs, mergeCursor{start, b})
		}
		start = b
	}
	heap.Init(h)
	out := make([]rec, 0, len(recs))
	for h.Len() > 0 {
		cur := &h.curs[0]
		out = append(out, recs[cur.pos])
		cur.pos++
		if cur.pos == cur.end {
			heap.Pop(h)
		} else {
			heap.Fix(h, 0)
		}
	}
	return out
}

// mergeCursor is the next line (pos) of one input and its end.
type mergeCursor struct{ pos, end int }

// mergeHeap orders the inputs' cursors by their current line; on equal
// lines the earlier input (the lower record index) comes first.
type mergeHeap struct {
	c    *comparer
	recs []rec
	curs []mergeCursor
}

func (h *mergeHeap) Len() int { return len(h.curs) }

func (h *mergeHeap) Less(i, j int) bool {
	a, b := h.curs[i].pos, h.curs[j].pos
	if d := h.c.compare(&h.recs[a], &h.recs[b]); d != 0 {
		return d < 0
	}
	return a < b
}

func (h *mergeHeap) Swap(i, j int) { h.curs[i], h.curs[j] = h.curs[j], h.curs[i] }

func (h *mergeHeap) Push(x any) { h.curs = append(h.curs, x.(mergeCursor)) }

func (h *mergeHeap) Pop() any {
	last := h.curs[len(h.curs)-1]
	h.curs = h.curs[:len(h.curs)-1]
	return last
}

// check verifies that file is sorted (-c, -C).
func (s *sorter) check(ctx context.Context, c *builtins.Call, name string, diagnose bool) int {
	if name != "-" {
		if _, err := c.Stat(name); err != nil {
			code := die(c, "cannot read: %s: %s", quote.UTF8.F(name), builtins.ErrText(err))
			return code
		}
	}
	err := s.readAll(ctx, c, name)
	recs, _ := s.split([]int{len(s.buf)})
	if err != nil {
		code := die(c, "read failed: %s: %s", quote.UTF8.F(name), builtins.ErrText(err))
		return code
	}
	s.prepare(recs)
	cmp := &comparer{s: s}
	minDiff := 1
	if s.unique {
		minDiff = 0
	}
	for i := 1; i < len(recs); i++ {
		if i&4095 == 0 && ctx.Err() != nil {
			return 1
		}
		if cmp.compare(&recs[i-1], &recs[i]) >= minDiff {
			if diagnose {
				var b bytes.Buffer
				fmt.Fprintf(&b, "%s: %s:%s: disorder: ", c.Name(), name, strconv.Itoa(i+1))
				b.Write(s.line(&recs[i]))
				b.WriteByte(s.eol)
				c.Stderr.Write(b.Bytes())
			}
			return 1
		}
	}
	return 0
}
