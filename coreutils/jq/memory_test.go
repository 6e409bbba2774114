package jq

import "testing"

// TestSizerCountsSharedOnce: a value built by sharing (each level holds
// the one below twice) is measured in time and bytes linear in its
// levels, not exponential; a shared array of scalars repeated in turn is
// counted once.
func TestSizerCountsSharedOnce(t *testing.T) {
	var v any = map[string]any{"leaf": "x"}
	for range 200 {
		v = map[string]any{"a": v, "b": v}
	}
	var s sizer
	got := s.size(v)
	perLevel := mapBytes(2) + seenCost + 2 + 2*8
	if got > 201*perLevel+1000 {
		t.Errorf("200 levels of sharing measured %d bytes, want about %d", got, 201*perLevel)
	}
	if again := s.size(v); again != 8 {
		t.Errorf("measured again: %d, want 8 (already counted)", again)
	}

	leaf := make([]any, 1000)
	for i := range leaf {
		leaf[i] = i
	}
	var r sizer
	first := r.size(leaf)
	total := first
	for range 10000 {
		total += r.size(leaf)
	}
	if total != first+10000*24 {
		t.Errorf("a shared array counted %d bytes over 10001 uses, want %d", total, first+10000*24)
	}

	tree := map[string]any{"k": []any{"s", 1.5, map[string]any{"z": nil}}}
	if a, b := valueSize(tree), (&sizer{}).size(tree); a > b || a == 0 {
		t.Errorf("valueSize %d, sizer %d: a tree needs no record", a, b)
	}
}
