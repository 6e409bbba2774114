//go:build !bashbox_front

package coreutils

import (
	"slices"
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

// TestNames: heavyNames lists exactly the heavy table's commands, sorted,
// and no command is in both tables, so the lean front (which has a failing
// entry for each heavy name) shows the same command set as the full
// binary.
func TestNames(t *testing.T) {
	var heavy []string
	for _, c := range heavyCommands() {
		heavy = append(heavy, c.name)
		if Lean(c.name) {
			t.Errorf("%s is in both tables", c.name)
		}
	}
	slices.Sort(heavy)
	if !slices.IsSorted(heavyNames) || !slices.Equal(heavy, heavyNames) {
		t.Fatalf("heavyNames and the heavy table differ:\ntable: %v\nnames: %v", heavy, heavyNames)
	}
	reg := builtins.NewRegistry()
	Register(reg)
	for _, n := range reg.Names() {
		if !Known(n) {
			t.Errorf("Known(%q) = false", n)
		}
	}
	if Known("nosuchcommand") || len(reg.Names()) != len(leanCommands())+len(heavyNames) {
		t.Error("Known or the table's size is off")
	}
}
