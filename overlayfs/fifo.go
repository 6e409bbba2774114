package overlayfs

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path"
	"sync"
	"syscall"
)

// Named pipes (FIFOs) of the in-memory layer. They behave as Linux's: an
// open for reading waits for a writer and one for writing waits for a
// reader (O_RDWR never waits; with O_NONBLOCK a read open succeeds at once
// and a write open without a reader fails with ENXIO), reads wait for data
// and see EOF once every writer has closed, writes wait for room in a
// bounded buffer and fail with EPIPE when no reader is left.
//
// Every wait ends when the context of the open ends, so no goroutine of a
// call outlives it waiting on a FIFO, and no layer lock is held while
// waiting. An open without a context (plain OpenFile) never waits: it
// behaves as an O_NONBLOCK open, and so do its reads and writes.

// PipeBuf is the most a FIFO holds unread, as Linux's default pipe size.
const PipeBuf = 64 << 10

// pipeAtomic is the largest write that is never interleaved with others
// (Linux's PIPE_BUF): it waits until it fits whole.
const pipeAtomic = 4096

// Mkfifoer is implemented by layers that make named pipes.
type Mkfifoer interface {
	Mkfifo(name string, perm fs.FileMode) error
}

// ContextOpener is implemented by filesystems whose opens may wait (for
// the other end of a FIFO): the wait, and the reads and writes of the file
// opened, end when ctx does.
type ContextOpener interface {
	OpenFileContext(ctx context.Context, name string, flag int, perm fs.FileMode) (File, error)
}

// OpenFileContext opens name on fsys, letting FIFO opens and I/O wait
// under ctx where fsys supports it.
func OpenFileContext(ctx context.Context, fsys interface {
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
}, name string, flag int, perm fs.FileMode) (File, error) {
	if co, ok := fsys.(ContextOpener); ok && ctx != nil {
		return co.OpenFileContext(ctx, name, flag, perm)
	}
	return fsys.OpenFile(name, flag, perm)
}

// Mkfifo makes a named pipe at name.
func (m *MemFs) Mkfifo(name string, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, base, err := m.parent(name)
	if err != nil {
		return pathErr("mkfifo", name, err)
	}
	if _, ok := p.children[base]; ok {
		return pathErr("mkfifo", name, syscall.EEXIST)
	}
	if !m.quota.reserveFile() {
		return pathErr("mkfifo", name, syscall.ENOSPC)
	}
	now := m.now()
	p.addChild(base, &memNode{mode: fs.ModeNamedPipe | perm.Perm(), mtime: now, pipe: &pipe{}})
	p.mtime = now
	return nil
}

// OpenFileContext is OpenFile, except that opening a FIFO waits under ctx
// for its other end, with the layer's lock released.
func (m *MemFs) OpenFileContext(ctx context.Context, name string, flag int, perm fs.FileMode) (File, error) {
	m.mu.RLock()
	n, err := m.walk(name)
	m.mu.RUnlock()
	if err != nil || n.pipe == nil {
		return m.OpenFile(name, flag, perm)
	}
	if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
		return nil, pathErr("open", Clean(name), syscall.EEXIST)
	}
	return m.openFifo(ctx, n, Clean(name), flag)
}

func (m *MemFs) openFifo(ctx context.Context, n *memNode, name string, flag int) (File, error) {
	return n.pipe.open(ctx, name, flag, endInfo{stat: func() (fs.FileInfo, error) {
		m.mu.RLock()
		defer m.mu.RUnlock()
		return n.info(path.Base(name)), nil
	}, quota: m.quota})
}

// OpenFileContext is OpenFile with FIFO opens of the upper layer waiting
// under ctx (a FIFO of the base, made on the host, is refused as the
// host layer refuses it).
func (o *Overlay) OpenFileContext(ctx context.Context, name string, flag int, perm fs.FileMode) (File, error) {
	name = Clean(name)
	if fi, _, err := o.upper.LstatIfPossible(name); err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		return o.upper.OpenFileContext(ctx, name, flag, perm)
	}
	return o.OpenFile(name, flag, perm)
}

// Mkfifo makes a named pipe in the upper layer.
func (o *Overlay) Mkfifo(name string, perm fs.FileMode) error {
	name, err := o.newEntry("mkfifo", name)
	if err != nil {
		return err
	}
	return o.upper.Mkfifo(name, perm)
}

// pipe is the kernel side of a FIFO: its buffer and who has it open.
type pipe struct {
	mu      sync.Mutex
	buf     []byte
	readers int
	writers int
	// rOpens and wOpens count opens ever made: a blocked open waits for
	// the other side's count to move, as Linux's does (a writer that came
	// and went still releases a waiting reader, which then reads EOF).
	rOpens, wOpens uint64
	// wake is closed, and replaced, whenever the state changes; waiters
	// select on it and on their context.
	wake chan struct{}
	// charges are the quotas the unread bytes are held against, oldest
	// first: each writer's own (see endInfo.quota).
	charges []charge
}

type charge struct {
	q *Quota
	n int
}

// charge holds n more bytes against q, or fails with ENOSPC (the quota
// then trips the call's budget). Call with mu held.
func (p *pipe) charge(q *Quota, n int) bool {
	if q == nil {
		return true
	}
	if !q.reserveBytes(int64(n)) {
		return false
	}
	if k := len(p.charges); k > 0 && p.charges[k-1].q == q {
		p.charges[k-1].n += n
	} else {
		p.charges = append(p.charges, charge{q, n})
	}
	return true
}

// uncharge gives back the oldest n bytes held (n < 0: all). Call with
// mu held.
func (p *pipe) uncharge(n int) {
	for len(p.charges) > 0 && n != 0 {
		c := &p.charges[0]
		k := c.n
		if n > 0 && n < k {
			k = n
		}
		c.q.release(int64(k), 0)
		if c.n -= k; c.n == 0 {
			p.charges = p.charges[1:]
		}
		if n > 0 {
			n -= k
		}
	}
	if len(p.charges) == 0 {
		p.charges = nil
	}
}

// endInfo is what an open end knows besides its pipe.
type endInfo struct {
	stat    func() (fs.FileInfo, error) // the FIFO's own
	release func()                      // if set, called once the end is gone
	// quota, if set, holds what this end writes until it is read: FIFO
	// data lives in memory, as the in-memory layers' files do.
	quota *Quota
}

// changed wakes every waiter. Call with mu held.
func (p *pipe) changed() {
	if p.wake != nil {
		close(p.wake)
		p.wake = nil
	}
}

// waitLocked releases mu until the state changes or ctx ends, and returns
// with mu held again.
func (p *pipe) waitLocked(ctx context.Context) error {
	if p.wake == nil {
		p.wake = make(chan struct{})
	}
	w := p.wake
	p.mu.Unlock()
	var err error
	select {
	case <-w:
	case <-ctx.Done():
		err = ctx.Err()
	}
	p.mu.Lock()
	return err
}

// open opens an end of p.
func (p *pipe) open(ctx context.Context, name string, flag int, info endInfo) (File, error) {
	nonblock := ctx == nil || flag&syscall.O_NONBLOCK != 0
	read := flag&(os.O_WRONLY|os.O_RDWR) != os.O_WRONLY
	write := flag&(os.O_WRONLY|os.O_RDWR) != 0
	p.mu.Lock()
	defer p.mu.Unlock()
	if write && !read && nonblock && p.readers == 0 {
		if info.release != nil {
			info.release()
		}
		return nil, pathErr("open", name, syscall.ENXIO)
	}
	if read {
		p.readers++
		p.rOpens++
	}
	if write {
		p.writers++
		p.wOpens++
	}
	p.changed()
	f := &fifoFile{p: p, endInfo: info, name: name, ctx: ctx, read: read, write: write, nonblock: nonblock}
	if read && write || nonblock {
		return f, nil
	}
	// Wait for the other side: a writer for a reader, a reader for a writer.
	other, seen := &p.wOpens, p.wOpens
	if write {
		other, seen = &p.rOpens, p.rOpens
	}
	for (read && p.writers == 0 || write && p.readers == 0) && *other == seen {
		if err := p.waitLocked(ctx); err != nil {
			f.closeLocked()
			return nil, pathErr("open", name, err)
		}
	}
	return f, nil
}

// fifoFile is one open end of a FIFO.
type fifoFile struct {
	p *pipe
	endInfo
	name        string
	ctx         context.Context // nil: never wait
	read, write bool
	nonblock    bool
	closed      bool
}

func (f *fifoFile) Name() string { return f.name }
func (f *fifoFile) Sync() error  { return nil }

func (f *fifoFile) Close() error {
	f.p.mu.Lock()
	defer f.p.mu.Unlock()
	f.closeLocked()
	return nil
}

func (f *fifoFile) closeLocked() {
	if f.closed {
		return
	}
	f.closed = true
	if f.read {
		f.p.readers--
	}
	if f.write {
		f.p.writers--
	}
	if f.p.readers == 0 && f.p.writers == 0 {
		f.p.buf = nil // Linux drops unread data with the last close
		f.p.uncharge(-1)
	}
	f.p.changed()
	if f.release != nil {
		f.release()
	}
}

func (f *fifoFile) Stat() (fs.FileInfo, error) { return f.stat() }

// usable refuses op on a closed end, or on one not opened for it (open
// says so in mode); p.mu is held.
func (f *fifoFile) usable(op string, mode bool) error {
	switch {
	case f.closed:
		return pathErr(op, f.name, os.ErrClosed)
	case !mode:
		return pathErr(op, f.name, syscall.EBADF)
	}
	return nil
}

func (f *fifoFile) Read(b []byte) (int, error) {
	p := f.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := f.usable("read", f.read); err != nil || len(b) == 0 {
		return 0, err
	}
	for len(p.buf) == 0 {
		if p.writers == 0 {
			return 0, io.EOF
		}
		if f.nonblock {
			return 0, pathErr("read", f.name, syscall.EAGAIN)
		}
		if err := p.waitLocked(f.ctx); err != nil {
			return 0, pathErr("read", f.name, err)
		}
		if f.closed {
			return 0, pathErr("read", f.name, os.ErrClosed)
		}
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	p.uncharge(n)
	if len(p.buf) == 0 {
		p.buf = nil // the next write starts a fresh slice: no creeping reslice
	}
	p.changed()
	return n, nil
}

func (f *fifoFile) Write(b []byte) (int, error) {
	p := f.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := f.usable("write", f.write); err != nil {
		return 0, err
	}
	done := 0
	for done < len(b) {
		if p.readers == 0 {
			return done, pathErr("write", f.name, syscall.EPIPE)
		}
		room := PipeBuf - len(p.buf)
		rest := len(b) - done
		if room == 0 || rest <= pipeAtomic && room < rest {
			if f.nonblock {
				if done > 0 {
					return done, nil
				}
				return 0, pathErr("write", f.name, syscall.EAGAIN)
			}
			if err := p.waitLocked(f.ctx); err != nil {
				return done, pathErr("write", f.name, err)
			}
			if f.closed {
				return done, pathErr("write", f.name, os.ErrClosed)
			}
			continue
		}
		k := min(room, rest)
		if !p.charge(f.quota, k) {
			return done, pathErr("write", f.name, syscall.ENOSPC)
		}
		p.buf = append(p.buf, b[done:done+k]...)
		done += k
		p.changed()
	}
	return done, nil
}

func (f *fifoFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *fifoFile) ReadAt([]byte, int64) (int, error) {
	return 0, pathErr("read", f.name, syscall.ESPIPE)
}
func (f *fifoFile) WriteAt([]byte, int64) (int, error) {
	return 0, pathErr("write", f.name, syscall.ESPIPE)
}
func (f *fifoFile) Seek(int64, int) (int64, error) {
	return 0, pathErr("seek", f.name, syscall.ESPIPE)
}
func (f *fifoFile) Truncate(int64) error { return pathErr("truncate", f.name, syscall.EINVAL) }
func (f *fifoFile) Readdir(int) ([]fs.FileInfo, error) {
	return nil, pathErr("readdirent", f.name, syscall.ENOTDIR)
}
func (f *fifoFile) Readdirnames(int) ([]string, error) {
	return nil, pathErr("readdirent", f.name, syscall.ENOTDIR)
}
