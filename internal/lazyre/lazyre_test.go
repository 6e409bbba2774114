package lazyre

import (
	"sync"
	"testing"
)

func TestCompilesOnceOnFirstUse(t *testing.T) {
	re := New(`^a+b$`)
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = re() }()
	}
	wg.Wait()
	for _, g := range got[1:] {
		if g != got[0] {
			t.Fatal("callers got different compiled expressions")
		}
	}
	if !re().MatchString("aab") || re().MatchString("ba") {
		t.Fatal("the compiled expression does not match as written")
	}
}

func TestBadExpressionPanicsAtFirstUse(t *testing.T) {
	re := New(`(`) // constructing must not panic
	defer func() {
		if recover() == nil {
			t.Fatal("a bad expression compiled")
		}
	}()
	re()
}
