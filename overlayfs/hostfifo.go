package overlayfs

import (
	"context"
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// FIFOs of host volumes. The host layer never opens one (TM-FS-011: an
// open could wait for good, holding the layer's lock, and a host process
// at the other end could feed the sandbox or be fed by it): a FIFO that
// was there before, or that a host process made, is refused with ENXIO.
// A FIFO the sandbox made itself (mkfifo, cp -a, tar x on a read-write
// volume) is a real host FIFO too, but the sandbox's opens of it meet in a
// pipe of this process, one per FIFO (device and inode), which behaves as
// the in-memory layer's FIFOs do: the commands of a script, or calls
// sharing the volume, talk through it; a host process opening it meets
// nobody.

// maxMadeFifos bounds how many FIFOs a host layer remembers having made;
// past it the oldest are forgotten (and refused like host-made ones).
const maxMadeFifos = 1 << 16

// hostFifos holds the FIFOs a host layer made, and their pipes while some
// end is open or waiting (the last one out drops the pipe).
type hostFifos struct {
	mu    sync.Mutex
	made  map[[2]uint64]bool
	order [][2]uint64 // made, oldest first
	pipes map[[2]uint64]*hostFifo
}

type hostFifo struct {
	pipe
	refs int
}

func (t *hostFifos) remember(key [2]uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.made == nil {
		t.made = map[[2]uint64]bool{}
	}
	if t.made[key] {
		return
	}
	if len(t.order) >= maxMadeFifos {
		delete(t.made, t.order[0])
		t.order = t.order[1:]
	}
	t.made[key] = true
	t.order = append(t.order, key)
}

// acquire returns the pipe of a FIFO the layer made, and the func that
// gives it back; ok is false for any other FIFO.
func (t *hostFifos) acquire(key [2]uint64) (p *pipe, release func(), ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.made[key] {
		return nil, nil, false
	}
	if t.pipes == nil {
		t.pipes = map[[2]uint64]*hostFifo{}
	}
	hf := t.pipes[key]
	if hf == nil {
		hf = &hostFifo{}
		t.pipes[key] = hf
	}
	hf.refs++
	return &hf.pipe, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if hf.refs--; hf.refs == 0 {
			delete(t.pipes, key)
		}
	}, true
}

// OpenFileContext opens name; a FIFO the layer made is opened as one of
// the sandbox (see above), its waits ending with ctx; anything else as
// OpenFile does (which refuses other FIFOs).
func (h *HostFs) OpenFileContext(ctx context.Context, name string, flag int, perm fs.FileMode) (File, error) {
	return h.openFifo(ctx, name, flag, perm, nil)
}

// openFifo is OpenFileContext with the unread data of a FIFO the layer
// made charged to q.
func (h *HostFs) openFifo(ctx context.Context, name string, flag int, perm fs.FileMode, q *Quota) (File, error) {
	fi, _, err := h.LstatIfPossible(name)
	key, isFifo := fifoKey(fi)
	if err != nil || !isFifo {
		return h.OpenFile(name, flag, perm)
	}
	p, release, ok := h.fifos.acquire(key)
	if !ok {
		return h.OpenFile(name, flag, perm)
	}
	name = Clean(name)
	if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
		release()
		return nil, pathErr("open", name, syscall.EEXIST)
	}
	return p.open(ctx, name, flag, endInfo{stat: func() (fs.FileInfo, error) {
		fi, _, err := h.LstatIfPossible(name)
		return fi, err
	}, release: release, quota: q})
}

// Mkfifo makes a FIFO in the host directory, one the sandbox may open.
func (h *HostFs) Mkfifo(name string, perm fs.FileMode) error {
	if err := h.writable("mkfifo", name); err != nil {
		return err
	}
	if err := h.mkfifo(name, safePerm(perm)); err != nil {
		return fix("mkfifo", name, err)
	}
	if fi, _, err := h.LstatIfPossible(name); err == nil {
		if key, ok := fifoKey(fi); ok {
			h.fifos.remember(key)
		}
	}
	return nil
}

// OpenFileContext opens FIFOs as HostFs does, their unread data charged
// to the in-memory quota set by HoldFifoData, and meters the rest.
func (m *MeteredHost) OpenFileContext(ctx context.Context, name string, flag int, perm fs.FileMode) (File, error) {
	if fi, _, err := m.HostFs.LstatIfPossible(name); err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		return m.HostFs.openFifo(ctx, name, flag, perm, m.mem)
	}
	return m.OpenFile(name, flag, perm)
}

// HoldFifoData charges what the call writes to FIFOs of this layer, while
// it is unread, to q: the in-memory layers' quota.
func (m *MeteredHost) HoldFifoData(q *Quota) *MeteredHost {
	m.mem = q
	return m
}

// Mkfifo makes a FIFO, charged as a file created.
func (m *MeteredHost) Mkfifo(name string, perm fs.FileMode) error {
	if err := m.writable("mkfifo", name); err != nil {
		return err
	}
	if !m.quota.takeFile() {
		return pathErr("mkfifo", Clean(name), syscall.ENOSPC)
	}
	return m.HostFs.Mkfifo(name, perm)
}
