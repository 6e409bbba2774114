package overlayfs

import (
	"context"
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// FIFOs of host volumes. The host layer never opens one (TM-FS-011: an
// open could wait for good, and a host process at the other end could
// feed the sandbox or be fed by it). Instead, the sandbox's own opens of a
// host FIFO meet in a pipe of this process, one per FIFO (device and
// inode), which behaves as the in-memory layer's FIFOs do: two commands of
// a script, or two calls sharing the volume, talk through it; a host
// process opening the FIFO meets nobody.

// hostFifos holds the pipes of a host layer's FIFOs while some end is open
// or waiting; the last one out drops the entry.
type hostFifos struct {
	mu    sync.Mutex
	pipes map[[2]uint64]*hostFifo
}

type hostFifo struct {
	pipe
	refs int
}

func (t *hostFifos) acquire(key [2]uint64) (*pipe, func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
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
	}
}

// OpenFileContext opens name; a FIFO is opened as one of the sandbox (see
// above), its waits ending with ctx, anything else as OpenFile does.
func (h *HostFs) OpenFileContext(ctx context.Context, name string, flag int, perm fs.FileMode) (File, error) {
	fi, _, err := h.LstatIfPossible(name)
	key, ok := fifoKey(fi)
	if err != nil || !ok {
		return h.OpenFile(name, flag, perm)
	}
	if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
		return nil, pathErr("open", Clean(name), syscall.EEXIST)
	}
	return h.openFifoKey(ctx, key, Clean(name), flag, nil)
}

// openFifo opens the host FIFO at name in the sandbox's pipe for it, its
// unread data charged to q.
func (h *HostFs) openFifo(ctx context.Context, name string, flag int, q *Quota) (File, error) {
	fi, _, err := h.LstatIfPossible(name)
	if err != nil {
		return nil, err
	}
	key, ok := fifoKey(fi)
	if !ok {
		return nil, pathErr("open", Clean(name), syscall.ENXIO)
	}
	if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
		return nil, pathErr("open", Clean(name), syscall.EEXIST)
	}
	return h.openFifoKey(ctx, key, Clean(name), flag, q)
}

func (h *HostFs) openFifoKey(ctx context.Context, key [2]uint64, name string, flag int, q *Quota) (File, error) {
	p, release := h.fifos.acquire(key)
	return p.open(ctx, name, flag, endInfo{stat: func() (fs.FileInfo, error) {
		fi, _, err := h.LstatIfPossible(name)
		return fi, err
	}, release: release, quota: q})
}

// Mkfifo makes a FIFO in the host directory.
func (h *HostFs) Mkfifo(name string, perm fs.FileMode) error {
	if err := h.writable("mkfifo", name); err != nil {
		return err
	}
	return fix("mkfifo", name, h.mkfifo(name, safePerm(perm)))
}

// OpenFileContext opens FIFOs as HostFs does, their unread data charged
// to the in-memory quota set by HoldFifoData, and meters the rest.
func (m *MeteredHost) OpenFileContext(ctx context.Context, name string, flag int, perm fs.FileMode) (File, error) {
	if fi, _, err := m.HostFs.LstatIfPossible(name); err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		return m.HostFs.openFifo(ctx, name, flag, m.mem)
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
