package grep

import (
	"io/fs"
	"sync/atomic"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// Searching files in parallel: grep -r hands each file of the walk to a
// worker, which searches it with its own matcher into a recording of what
// it wrote (standard output, standard error, and where it flushed). The
// walk replays the recordings in walk order through the one real output,
// so what comes out, and where error messages fall in it, is what the
// sequential search produces. Only the reading and matching overlap.
//
// Not used with context lines (group separators span files), -q, or
// --line-buffered, and files larger than aheadMaxSize are searched by the
// walk itself, streaming, so that no recording grows without bound.

// Files go to the workers in batches: a search of many small files
// handed over one at a time parks and wakes a worker's thread per file,
// and those context switches (with the cache lines that bounce between
// CPUs) cost more CPU than the searching they spread. A batch is sent
// when full, and before the walk waits for a file or replays what is
// queued.
const (
	aheadBatch   = 16             // files handed to a worker at once
	aheadJobs    = 3 * aheadBatch // files in flight: a batch per worker and one filling
	aheadMaxSize = 256 << 10      // larger files are searched in order, streaming
)

// event is one recorded write: kind 'o' standard output, 'e' standard
// error, 'f' a flush of standard output.
type event struct {
	kind byte
	data []byte
}

// recording collects a worker's output for one file.
type recording struct{ events []event }

func (r *recording) add(kind byte, p []byte) {
	if n := len(r.events); n > 0 && r.events[n-1].kind == kind && kind != 'f' {
		r.events[n-1].data = append(r.events[n-1].data, p...)
		return
	}
	r.events = append(r.events, event{kind, append([]byte(nil), p...)})
}

// stdout and stderr are the recording's two streams.
type recStream struct {
	r    *recording
	kind byte
}

func (s recStream) Write(p []byte) (int, error) {
	s.r.add(s.kind, p)
	return len(p), nil
}

// fileJob is one file handed to a worker.
type fileJob struct {
	name, shown string
	fi          fs.FileInfo
	outFile     bool // print file names (as the walk had it when queued)
	operand     bool // a command-line operand, not a file met in a walk

	// taken is set by whoever searches the file: a worker, or the walk
	// when the file's turn comes before a worker started on it (a
	// worker's thread the machine does not run then cannot hold up the
	// walk).
	taken            atomic.Bool
	rec              recording
	matched, errSeen bool
	inOrder          bool          // too large, or taken by the walk: the walk searches it itself
	done             chan struct{} // closed when a worker has searched it
}

// ahead runs the workers of one recursive search.
type ahead struct {
	g       *grepper
	jobs    chan []*fileJob
	pending []*fileJob // queued, oldest first
	batch   []*fileJob // the newest of pending, not yet sent
	wg      builtins.Group
}

// startAhead starts workers for a recursive search, or returns nil when
// the search must stay sequential.
func (g *grepper) startAhead() *ahead {
	cfg := g.cfg
	workers := g.c.SearchWorkers()
	if workers < 1 || cfg.quiet || cfg.lineBuf || cfg.before >= 0 || cfg.after >= 0 {
		return nil
	}
	a := &ahead{g: g, jobs: make(chan []*fileJob, aheadJobs/aheadBatch)}
	for range workers {
		m, err := newMatcher(cfg)
		if err != nil {
			return nil
		}
		g.limit.bind(m)
		call := *g.c
		w := &grepper{ctx: g.ctx, c: &call, cfg: cfg, m: m, colors: g.colors, limit: g.limit}
		a.wg.Go(func() { a.work(w) })
	}
	return a
}

func (a *ahead) work(w *grepper) {
	out := textio.NewWriter(nil)
	for batch := range a.jobs {
		for _, j := range batch {
			if !j.taken.CompareAndSwap(false, true) {
				continue // the walk's now
			}
			w.rec = &j.rec
			out.Reset(recStream{&j.rec, 'o'})
			w.out = out
			w.c.Stderr = recStream{&j.rec, 'e'}
			w.matched, w.errSeen, w.quit, w.werr, w.used = false, false, false, nil, false
			w.outFile = j.outFile
			a.search(w, j)
		}
	}
	giveReadBuf(w)
}

// search runs one job. A panic leaves the file to the walk, whose own
// search of it then fails the way a command does.
func (a *ahead) search(w *grepper, j *fileJob) {
	defer close(j.done)
	defer func() {
		if recover() != nil {
			j.inOrder = true
		}
	}()
	if w.ctx.Err() == nil {
		if j.operand {
			j.inOrder = !w.searchOpened(j.name, aheadMaxSize)
		} else {
			j.inOrder = !w.searchFileUpTo(j.name, j.shown, j.fi, aheadMaxSize)
		}
		w.out.Flush()
	}
	j.matched, j.errSeen = w.matched, w.errSeen
}

// submit queues a file, replaying finished ones to keep aheadJobs in
// flight at most.
func (a *ahead) submit(name, shown string, fi fs.FileInfo) {
	a.queue(&fileJob{name: name, shown: shown, fi: fi, outFile: a.g.outFile, done: make(chan struct{})})
}

// submitOperand queues a command-line operand. A worker searches it only
// when it opens as a regular file of at most aheadMaxSize bytes; anything
// else (an error, a directory, a device) takes the sequential operand
// path in its turn, with that path's messages.
func (a *ahead) submitOperand(name string) {
	a.queue(&fileJob{name: name, shown: name, operand: true, outFile: a.g.outFile, done: make(chan struct{})})
}

func (a *ahead) queue(j *fileJob) {
	if a.batch = append(a.batch, j); len(a.batch) >= aheadBatch {
		a.send()
	}
}

// send hands the filling batch to a worker, replaying the oldest files
// first while more than aheadJobs would be in flight.
func (a *ahead) send() {
	if len(a.batch) == 0 {
		return
	}
	for len(a.pending) > 0 && len(a.pending)+len(a.batch) > aheadJobs {
		a.replayOne()
	}
	a.pending = append(a.pending, a.batch...)
	a.jobs <- a.batch
	a.batch = make([]*fileJob, 0, aheadBatch)
}

// replayOne waits for the oldest file and writes out what its search
// wrote, in the order it was written.
func (a *ahead) replayOne() {
	g := a.g
	j := a.pending[0]
	a.pending = a.pending[1:]
	if j.taken.CompareAndSwap(false, true) {
		j.inOrder = true
	} else {
		<-j.done
	}
	if g.quit {
		return
	}
	if j.inOrder {
		g.ahead = nil // its messages need no draining: nothing is before it
		if j.operand {
			g.operand(j.name, false, false)
		} else {
			g.searchFileShown(j.name, j.shown, j.fi)
		}
		g.ahead = a
		return
	}
	g.matched = g.matched || j.matched
	g.errSeen = g.errSeen || j.errSeen
	for _, e := range j.rec.events {
		switch e.kind {
		case 'o':
			g.write(e.data)
		case 'f':
			if err := g.out.Flush(); err != nil && g.werr == nil {
				g.werr, g.quit = err, true
			}
		case 'e':
			g.c.Stderr.Write(e.data)
		}
		if g.quit {
			return
		}
	}
}

// drain replays every queued file: before the walk writes anything itself,
// and at its end.
func (a *ahead) drain() {
	a.send()
	for len(a.pending) > 0 {
		a.replayOne()
	}
}

// stop drains and ends the workers.
func (a *ahead) stop() {
	a.drain()
	close(a.jobs)
	a.wg.Wait()
}
