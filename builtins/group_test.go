package builtins

import (
	"sync/atomic"
	"testing"
)

func TestGroupRaisesPanicsInWait(t *testing.T) {
	var g Group
	var ran atomic.Int32
	for i := range 4 {
		g.Go(func() {
			ran.Add(1)
			if i == 2 {
				panic("boom")
			}
		})
	}
	defer func() {
		if p := recover(); p != "boom" || ran.Load() != 4 {
			t.Errorf("recovered %v after %d goroutines", p, ran.Load())
		}
	}()
	g.Wait()
	t.Error("Wait returned")
}
