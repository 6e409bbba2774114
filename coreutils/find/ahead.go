package find

import (
	"io/fs"

	"github.com/bashbox/bashbox/coreutils/internal/readahead"
)

// Directories are read ahead of the walk (package readahead) only for
// expressions that change nothing (no -exec, -ok, -delete, no output
// file): a listing read ahead is read earlier than the walk would have
// read it, which only an action run in between could tell. Not with -L
// either, whose loop check stats every linked directory first.

// unordered primaries act on the filesystem (or write a file in it): with
// any of them, directories are listed only when the walk reaches them.
var unordered = map[string]bool{
	"-exec": true, "-execdir": true, "-ok": true, "-okdir": true, "-delete": true,
	"-fprint": true, "-fprint0": true, "-fprintf": true, "-fls": true,
}

func changesNothing(n *node) bool {
	switch {
	case n == nil:
		return true
	case n.op == opPred:
		return !unordered[n.name]
	}
	return changesNothing(n.l) && changesNothing(n.r)
}

// startListers starts listers, one fewer than the workers (the walk mostly
// waits for them), or returns nil when the walk must list each directory
// itself.
func (f *finder) startListers() *readahead.Listers {
	n := f.c.SearchWorkers()
	if n < 1 || f.follow == followAll || !changesNothing(f.expr) {
		return nil
	}
	return readahead.Start(n-1, readahead.Options{
		Read: f.readDir,
		Join: joinAbs,
		Descend: func(depth int, fi fs.FileInfo) bool {
			return (f.maxDepth < 0 || depth < f.maxDepth) && fi.IsDir()
		},
	})
}
