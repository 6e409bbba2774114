package overlayfs

// defaultChunkShift sets the block size of in-memory file data: 64 KiB.
// A file held in one slice grows by copying the whole of it, a memmove of
// up to the overlay's quota that no stop or GC can interrupt; in blocks,
// growth copies at most one block, however big the file.
const defaultChunkShift = 16

// chunks is the data of an in-memory regular file. Block i holds the bytes
// from i<<shift for len(blocks[i]); whatever of the file lies past a
// block's length, or in a missing or nil block, reads as zeros, so a hole
// holds no memory. A block's length never passes 1<<shift, nor the file's
// size; bytes between its length and its capacity are stale and are
// cleared before the block grows over them.
type chunks struct {
	size   int64
	blocks [][]byte
	shift  uint8
}

func (c *chunks) blockSize() int64 { return 1 << c.shift }

// readAt copies the file's bytes from off into p and returns how many it
// copied: fewer than len(p) only at the end of the file.
func (c *chunks) readAt(p []byte, off int64) int {
	if off >= c.size {
		return 0
	}
	p = p[:min(int64(len(p)), c.size-off)]
	bs := c.blockSize()
	done := 0
	for done < len(p) {
		pos := off + int64(done)
		i, in := pos>>c.shift, pos&(bs-1)
		want := min(int64(len(p)-done), bs-in)
		dst := p[done : done+int(want)]
		var b []byte
		if i < int64(len(c.blocks)) {
			b = c.blocks[i]
		}
		n := 0
		if in < int64(len(b)) {
			n = copy(dst, b[in:])
		}
		clear(dst[n:])
		done += len(dst)
	}
	return len(p)
}

// writeAt stores p at off, growing the file as needed.
func (c *chunks) writeAt(p []byte, off int64) {
	if len(p) == 0 {
		return // as pwrite: no bytes, no growth
	}
	bs := c.blockSize()
	if end := off + int64(len(p)); end > c.size {
		c.size = end
	}
	for len(p) > 0 {
		i, in := off>>c.shift, off&(bs-1)
		n := min(int64(len(p)), bs-in)
		if i >= int64(len(c.blocks)) {
			c.blocks = append(c.blocks, make([][]byte, i+1-int64(len(c.blocks)))...)
		}
		b := grow(c.blocks[i], in, in+n, bs)
		copy(b[in:], p[:n])
		c.blocks[i] = b
		p, off = p[n:], off+n
	}
}

// grow returns b with a length of at least end (at most limit), the
// bytes from its old length up to from cleared.
func grow(b []byte, from, end, limit int64) []byte {
	l := int64(len(b))
	if end <= l {
		return b
	}
	if end > int64(cap(b)) {
		nb := make([]byte, end, min(limit, max(end, 2*int64(cap(b)))))
		copy(nb, b)
		return nb
	}
	b = b[:end]
	if from > l {
		clear(b[l:from])
	}
	return b
}

// truncate sets the file's size; what it adds is a hole.
func (c *chunks) truncate(size int64) {
	if size < c.size {
		bs := c.blockSize()
		keep := (size + bs - 1) >> c.shift
		if keep < int64(len(c.blocks)) {
			clear(c.blocks[keep:])
			c.blocks = c.blocks[:keep]
		}
		if last := keep - 1; last >= 0 && last < int64(len(c.blocks)) {
			if b := c.blocks[last]; int64(len(b)) > size-last<<c.shift {
				c.blocks[last] = b[:size-last<<c.shift]
			}
		}
	}
	c.size = size
}
