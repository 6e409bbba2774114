package coreutils

import (
	"slices"
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

// TestNames: names lists exactly the full table's commands, sorted, so the
// lean front's table (which stubs every name it does not link) shows the
// same command set as the full binary.
func TestNames(t *testing.T) {
	reg := builtins.NewRegistry()
	Register(reg)
	got := reg.Names()
	if !slices.IsSorted(names) {
		t.Fatal("names is not sorted")
	}
	if !slices.Equal(got, names) {
		t.Fatalf("names and the table differ:\ntable: %v\nnames: %v", got, names)
	}
	for _, n := range got {
		if !Known(n) {
			t.Errorf("Known(%q) = false", n)
		}
	}
	if Known("nosuchcommand") {
		t.Error("Known(nosuchcommand) = true")
	}
}
