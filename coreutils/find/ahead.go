package find

import (
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/bashbox/bashbox/builtins"
)

// Reading directories ahead of the walk: a walk over many small
// directories spends most of its time in the kernel, opening and listing
// each, one after the other. When the call may use more than one CPU, the
// subdirectories of each listing are queued for listers, which read them
// (and queue their subdirectories in turn) while the walk goes on; the
// walk takes each listing when it reaches the directory, in the order it
// always visits, and reads a queued directory itself when no lister has
// started on it. Listers take the oldest queued directory, the one the
// walk reaches last: the walk reads its way down the near end of the tree
// while they read the far end, and neither waits for the other. (Taking
// the newest, the directory the walk needs next, had the walk wait for a
// lister at every step: no faster than alone, and a third more CPU for
// the handoffs.) What is printed, and when errors are reported, does not
// change.
//
// Only for expressions that change nothing (no -exec, -ok, -delete, no
// output file): a listing read ahead is read earlier than the walk would
// have read it, which only an action run in between could tell. Not with
// -L either, whose loop checks stat every linked directory first.

const (
	aheadListings = 256 // listings queued or read and not yet taken
)

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

// listing states
const (
	queued int32 = iota
	taken        // by a lister, or by the walk
)

// listing is one directory read ahead.
type listing struct {
	state atomic.Int32
	abs   string
	depth int // the directory's, as the walk counts
	list  []fs.FileInfo
	kids  []*listing // list's subdirectories queued by the lister, at their indexes
	err   error
	done  chan struct{} // closed once a lister has read it
	used  bool          // the walk took or dropped it (walk only)
}

// listers read queued directories, the oldest first.
type listers struct {
	f     *finder
	mu    sync.Mutex
	wake  *sync.Cond
	stack []*listing
	held  int // queued or read, not yet taken or dropped
	stop  bool
	wg    builtins.Group
}

// startListers starts n listers, or returns nil when the walk must list
// each directory itself.
func (f *finder) startListers() *listers {
	n := f.c.SearchWorkers() // the walk mostly waits for them
	if n < 1 || f.follow == followAll || !changesNothing(f.expr) {
		return nil
	}
	ls := &listers{f: f}
	ls.wake = sync.NewCond(&ls.mu)
	for range n - 1 { // and the walk itself

		ls.wg.Go(ls.run)
	}
	return ls
}

func (ls *listers) run() {
	for {
		ls.mu.Lock()
		for len(ls.stack) == 0 && !ls.stop {
			ls.wake.Wait()
		}
		if ls.stop {
			ls.mu.Unlock()
			return
		}
		l := ls.stack[0]
		ls.stack[0] = nil
		ls.stack = ls.stack[1:]
		ls.mu.Unlock()
		if l.state.CompareAndSwap(queued, taken) {
			ls.read(l)
		}
	}
}

// read lists l; done is closed even when the listing panics (the panic
// then fails the call when the walk ends), so that the walk never waits
// for good.
func (ls *listers) read(l *listing) {
	defer close(l.done)
	l.list, l.err = ls.f.readDir(l.abs)
	l.kids = ls.queue(l.depth, l.abs, l.list)
}

// queue hands the subdirectories in list, members of the directory at
// dirAbs and depth, to the listers; the result has each one's listing at
// its index.
func (ls *listers) queue(depth int, dirAbs string, list []fs.FileInfo) []*listing {
	f := ls.f
	if f.maxDepth >= 0 && depth+1 >= f.maxDepth {
		return nil // the walk lists none of them
	}
	var ahead []*listing
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for i := 0; i < len(list) && ls.held < aheadListings; i++ {
		if !list[i].IsDir() {
			continue
		}
		if ahead == nil {
			ahead = make([]*listing, len(list))
		}
		l := &listing{abs: joinAbs(dirAbs, list[i].Name()), depth: depth + 1, done: make(chan struct{})}
		ahead[i] = l
		ls.stack = append(ls.stack, l)
		ls.held++
	}
	if ahead != nil {
		ls.wake.Broadcast()
	}
	return ahead
}

// take returns the listing of l's directory, and its subdirectories'
// listings when the lister that read it queued them: read by a lister, or
// by the walk now when no lister has started on it.
func (ls *listers) take(l *listing) ([]fs.FileInfo, []*listing, error) {
	mine := l.state.CompareAndSwap(queued, taken)
	ls.drop(l)
	if mine {
		list, err := ls.f.readDir(l.abs)
		return list, nil, err
	}
	<-l.done
	return l.list, l.kids, l.err
}

// drop gives up l's place: taken, or not to be visited. A listing not to
// be visited gives up the places of those its lister queued as well.
func (ls *listers) drop(l *listing) {
	if l == nil || l.used {
		return
	}
	l.used = true
	ls.mu.Lock()
	ls.held--
	ls.mu.Unlock()
}

// dropTree is drop for a listing the walk will not visit.
func (ls *listers) dropTree(l *listing) {
	if l == nil || l.used {
		return
	}
	ls.drop(l)
	if !l.state.CompareAndSwap(queued, taken) { // no lister starts it now
		<-l.done
		for _, k := range l.kids {
			ls.dropTree(k)
		}
	}
}

// end stops the listers once the walk is over.
func (ls *listers) end() {
	ls.mu.Lock()
	ls.stop = true
	ls.stack = nil
	ls.wake.Broadcast()
	ls.mu.Unlock()
	ls.wg.Wait()
}
