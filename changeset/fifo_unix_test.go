//go:build unix

package changeset

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO made in the overlay, or one of the base deleted, is in the set as
// an empty file: a change set never opens a FIFO (it would wait for a
// writer, or fail on a host FIFO).
func TestFifosHaveNoContent(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "hostp"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := overlayOn(t, dir)
	must(t, o.Mkfifo("/p", 0o644))
	must(t, o.Remove("/hostp"))
	set, err := FromOverlay(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Entries) != 2 {
		t.Fatalf("entries: %+v", set.Entries)
	}
}
