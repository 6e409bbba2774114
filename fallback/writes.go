package fallback

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/bashbox/bashbox/overlayfs"
)

// A fallback process writes to the read-write volumes directly, past the
// metered layer that charges the script's own writes to the call's write
// quota. Its writes are bounded in three ways:
//
//   - at the write: no file may grow past the quota's remaining bytes
//     (RLIMIT_FSIZE; the write fails with EFBIG, "File too large");
//   - while it runs: a watch of the volumes' file systems (free space and
//     free inodes, sampled every few milliseconds) that, when they have
//     lost more than the quota's remainder, measures the volumes exactly and
//     stops the process if it did go over;
//   - after it: what it added to the volumes (entries created, bytes by
//     which files grew, a new file counting whole) is charged to the
//     quota, and a charge past the quota ends the call on the write_bytes
//     or write_files budget.
//
// What the script wrote meanwhile through the metered layer (a background
// job) is counted once: it is taken off the measured growth.

// writeMeter measures one fallback run's writes to the read-write volumes.
type writeMeter struct {
	quota      *overlayfs.WriteQuota
	roots      []string
	before     map[fileKey]int64 // size of every entry (0 for non-files)
	leftBytes  int64             // the quota's remainder at the start; -1: no limit
	leftFiles  int64
	startBytes int64 // the metered layer's counts at the start
	startFiles int64
}

// fileKey names an entry by device and inode where the system has them
// (hard links count once; a file replaced by rename counts as new, as a
// create through the metered layer does), else by path.
type fileKey struct {
	dev, ino uint64
	path     string
}

// newWriteMeter snapshots roots; nil when q sets no limit.
func newWriteMeter(ctx context.Context, q *overlayfs.WriteQuota, roots []string) (*writeMeter, error) {
	if q == nil || (q.MaxBytes <= 0 && q.MaxFiles <= 0) || len(roots) == 0 {
		return nil, nil
	}
	m := &writeMeter{quota: q, roots: roots, before: map[fileKey]int64{}, startBytes: q.Bytes(), startFiles: q.Files()}
	m.leftBytes, m.leftFiles = q.Remaining()
	err := m.walk(ctx, func(k fileKey, size int64) { m.before[k] = size })
	if err != nil {
		return nil, err
	}
	return m, nil
}

// fileSizeLimit is the child's RLIMIT_FSIZE: the bytes the call may still
// write (at least 1, since 0 means no limit), 0 when bytes are unlimited.
func (m *writeMeter) fileSizeLimit() uint64 {
	if m == nil || m.leftBytes < 0 {
		return 0
	}
	return uint64(max(1, m.leftBytes))
}

// walk visits every entry under the roots, not following links.
func (m *writeMeter) walk(ctx context.Context, visit func(fileKey, int64)) error {
	n := 0
	for _, root := range m.roots {
		if err := walkRoot(ctx, root, &n, visit); err != nil {
			return err
		}
	}
	return nil
}

// growth measures what was added since the snapshot, less what the
// metered layer counted meanwhile. With keep, the snapshot is updated to
// the present (so that a second link to a new file counts once).
func (m *writeMeter) growth(ctx context.Context, keep bool) (bytes, files int64, err error) {
	seen := m.before
	if !keep {
		seen = map[fileKey]int64{}
	}
	err = m.walk(ctx, func(k fileKey, size int64) {
		old, ok := seen[k]
		if !ok && !keep {
			old, ok = m.before[k]
		}
		switch {
		case !ok:
			files++
			bytes += size
		case size > old:
			bytes += size - old
		}
		seen[k] = max(size, old)
	})
	bytes -= m.quota.Bytes() - m.startBytes
	files -= m.quota.Files() - m.startFiles
	return max(0, bytes), max(0, files), err
}

// over reports whether growth exceeds what the quota had left.
func (m *writeMeter) over(bytes, files int64) bool {
	return (m.leftBytes >= 0 && bytes > m.leftBytes) || (m.leftFiles >= 0 && files > m.leftFiles)
}

// watchInterval is how often the file systems are sampled; recheckEvery
// bounds how often a drop in free space (which other writers to the same
// file system cause too) costs an exact measurement.
const (
	watchInterval = 10 * time.Millisecond
	recheckEvery  = 200 * time.Millisecond
)

// watch samples the volumes' file systems until ctx ends and calls stop
// once the process has provably written past the quota. The returned
// function ends the watch and waits for it.
func (m *writeMeter) watch(ctx context.Context, stop func()) (end func()) {
	if m == nil {
		return func() {}
	}
	base := freeSpace(m.roots)
	if base == nil {
		return func() {} // no statfs here: the after-run charge remains
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(watchInterval)
		defer tick.Stop()
		var checked time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			bytes, files := base.lostSince(freeSpace(m.roots))
			if !m.over(bytes, files) || time.Since(checked) < recheckEvery {
				continue
			}
			checked = time.Now()
			if b, f, err := m.growth(ctx, false); err == nil && m.over(b, f) {
				stop()
				return
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// charge counts the run's growth against the quota after the process
// ended. It returns the message to print when that went over.
func (m *writeMeter) charge(ctx context.Context, name string) string {
	if m == nil {
		return ""
	}
	bytes, files, err := m.growth(ctx, true)
	if err != nil {
		return "" // the call ended meanwhile, on its own budget
	}
	if m.quota.Charge(bytes, files) {
		return ""
	}
	return fmt.Sprintf("bashbox: %s: wrote past the call's write quota (%d bytes, %d entries added)", name, bytes, files)
}
