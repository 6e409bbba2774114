package lazy

import (
	"sync"
	"sync/atomic"
	"testing"
)

var calls atomic.Int32

var table = Value[map[string]int]{New: func() map[string]int {
	calls.Add(1)
	return map[string]int{"a": 1, "b": 2}
}}

func TestBuildsOnceOnFirstUse(t *testing.T) {
	if calls.Load() != 0 {
		t.Fatal("the value was built before its first use")
	}
	var wg sync.WaitGroup
	got := make([]map[string]int, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = table.Get() }()
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("New ran %d times, want 1", n)
	}
	for _, g := range got {
		if g["a"] != 1 || g["b"] != 2 || len(g) != 2 {
			t.Fatalf("Get returned %v", g)
		}
	}
}
