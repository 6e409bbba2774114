// Package readahead reads directories ahead of a walk: a walk over many
// small directories spends most of its time in the kernel, opening and
// listing each, one after the other. When the call may use more than one
// CPU, the subdirectories of each listing are queued for listers, which
// read them (and queue their subdirectories in turn) while the walk goes
// on; the walk takes each listing when it reaches the directory, in the
// order it always visits, and reads a queued directory itself when no
// lister has started on it. Listers take the oldest queued directory, the
// one the walk reaches last: the walk reads its way down the near end of
// the tree while they read the far end, and neither waits for the other.
// (Taking the newest, the directory the walk needs next, had the walk wait
// for a lister at every step: no faster than alone, and a third more CPU
// for the handoffs.) What the walk prints, and when it reports errors,
// does not change: it meets each listing, and its error, where it always
// did.
//
// Only for walks that change nothing in the tree: a listing read ahead is
// read earlier than the walk would have read it, which only an action run
// in between could tell.
package readahead

import (
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/bashbox/bashbox/builtins"
)

// maxHeld bounds the listings queued or read and not yet taken.
const maxHeld = 256

// Options is what the listers need from the walk.
type Options struct {
	// Read lists a directory as the walk itself would.
	Read func(dir string) ([]fs.FileInfo, error)
	// Join names a member of a directory, as Read takes it.
	Join func(dir, name string) string
	// Descend reports whether the walk lists member fi, at depth, of a
	// listed directory: only those are read ahead.
	Descend func(depth int, fi fs.FileInfo) bool
}

// listing states
const (
	queued int32 = iota
	taken        // by a lister, or by the walk
)

// Listing is one directory read ahead.
type Listing struct {
	state atomic.Int32
	dir   string
	depth int // the directory's, as the walk counts
	list  []fs.FileInfo
	kids  []*Listing // list's subdirectories queued by the lister, at their indexes
	err   error
	done  chan struct{} // closed once a lister has read it
	used  bool          // the walk took or dropped it (walk only)
}

// Listers read queued directories, the oldest first. Queue, Take, Drop,
// DropTree and End are for the walk's goroutine only.
type Listers struct {
	o     Options
	mu    sync.Mutex
	wake  *sync.Cond
	stack []*Listing
	held  int // queued or read, not yet taken or dropped
	stop  bool
	wg    builtins.Group
}

// Start starts n listers, or returns nil when n < 1 (the walk then lists
// each directory itself). End must follow, after a panic too.
func Start(n int, o Options) *Listers {
	if n < 1 {
		return nil
	}
	ls := &Listers{o: o}
	ls.wake = sync.NewCond(&ls.mu)
	for range n {
		ls.wg.Go(ls.run)
	}
	return ls
}

func (ls *Listers) run() {
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
func (ls *Listers) read(l *Listing) {
	defer close(l.done)
	l.list, l.err = ls.o.Read(l.dir)
	l.kids = ls.Queue(l.depth, l.dir, l.list)
}

// Queue hands the members of list (the listing of dir, at depth) that the
// walk descends into to the listers; the result has each one's listing at
// its index, or is nil when none was queued.
func (ls *Listers) Queue(depth int, dir string, list []fs.FileInfo) []*Listing {
	var ahead []*Listing
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for i := 0; i < len(list) && ls.held < maxHeld; i++ {
		if !ls.o.Descend(depth+1, list[i]) {
			continue
		}
		if ahead == nil {
			ahead = make([]*Listing, len(list))
		}
		l := &Listing{dir: ls.o.Join(dir, list[i].Name()), depth: depth + 1, done: make(chan struct{})}
		ahead[i] = l
		ls.stack = append(ls.stack, l)
		ls.held++
	}
	if ahead != nil {
		ls.wake.Broadcast()
	}
	return ahead
}

// Take returns the listing of l's directory, and its subdirectories'
// listings when the lister that read it queued them: read by a lister, or
// by the walk now when no lister has started on it.
func (ls *Listers) Take(l *Listing) ([]fs.FileInfo, []*Listing, error) {
	mine := l.state.CompareAndSwap(queued, taken)
	ls.Drop(l)
	if mine {
		list, err := ls.o.Read(l.dir)
		return list, nil, err
	}
	<-l.done
	return l.list, l.kids, l.err
}

// Drop gives up l's place: taken, or not to be visited.
func (ls *Listers) Drop(l *Listing) {
	if l == nil || l.used {
		return
	}
	l.used = true
	ls.mu.Lock()
	ls.held--
	ls.mu.Unlock()
}

// DropTree is Drop for a listing the walk will not visit (pruned, or left
// when the walk quits): the places of those its lister queued go too.
func (ls *Listers) DropTree(l *Listing) {
	if l == nil || l.used {
		return
	}
	ls.Drop(l)
	if !l.state.CompareAndSwap(queued, taken) { // no lister starts it now
		<-l.done
		for _, k := range l.kids {
			ls.DropTree(k)
		}
	}
}

// End stops the listers once the walk is over and waits for them; a
// lister's panic is raised again here.
func (ls *Listers) End() {
	ls.mu.Lock()
	ls.stop = true
	ls.stack = nil
	ls.wake.Broadcast()
	ls.mu.Unlock()
	ls.wg.Wait()
}
