package overlayfs

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"testing"
)

// smallChunks makes m store its files in 8-byte blocks, so that a few
// bytes of writes cross block boundaries.
func smallChunks(m *MemFs) *MemFs {
	m.chunkShift = 3
	return m
}

// FuzzMemFileChunks runs random writes, reads, truncations, appends,
// reopenings, links and renames on one in-memory file stored in 8-byte
// blocks, against a plain byte slice: contents, sizes and the quota's
// count must match it after every step.
func FuzzMemFileChunks(f *testing.F) {
	f.Add([]byte{0, 7, 3, 1, 9, 0, 2, 30, 0, 0, 17, 5, 3, 64, 0, 4, 0, 0, 5, 0, 0, 6, 0, 0, 1, 0, 40})
	f.Add([]byte("write across the eighth byte, truncate into a block, grow a hole"))
	f.Add([]byte{0, 100, 1, 2, 4, 0, 2, 2, 0, 0, 7, 1, 3, 200, 0, 1, 0, 60})
	f.Fuzz(func(t *testing.T, ops []byte) {
		q := &Quota{}
		m := smallChunks(NewMemFs(q))
		name := "/f"
		fh, err := m.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { fh.Close() }()
		var model []byte
		linked := false
		for i := 0; i+2 < len(ops); i += 3 {
			// Offsets cluster round block boundaries: block k's edge, -2..+5.
			off := int64(ops[i+1]>>3)*8 + int64(ops[i+1]&7) - 2
			off = max(off, 0)
			n := int(ops[i+2] % 40)
			switch ops[i] % 8 {
			case 0: // write
				p := bytes.Repeat([]byte{ops[i+2] | 1}, n)
				if n >= 2 { // marks each write apart
					binary.LittleEndian.PutUint16(p, uint16(i))
				}
				if _, err := fh.WriteAt(p, off); err != nil {
					t.Fatal(err)
				}
				if n > 0 { // a write of nothing grows nothing, as pwrite
					if end := int(off) + n; end > len(model) {
						model = append(model, make([]byte, end-len(model))...)
					}
					copy(model[off:], p)
				}
			case 1: // read, checked below anyway: here at an offset
				got := make([]byte, n)
				k, err := fh.ReadAt(got, off)
				want := []byte{}
				if int(off) < len(model) {
					want = model[off:min(len(model), int(off)+n)]
				}
				if k != len(want) || !bytes.Equal(got[:k], want) || (n > 0 && (k < n) != (err == io.EOF)) {
					t.Fatalf("ReadAt(%d, %d) = %d %v %x, want %x", n, off, k, err, got[:k], want)
				}
			case 2: // truncate
				if err := fh.Truncate(off); err != nil {
					t.Fatal(err)
				}
				if int(off) < len(model) {
					model = model[:off]
				} else {
					model = append(model, make([]byte, int(off)-len(model))...)
				}
			case 3: // append
				p := bytes.Repeat([]byte{'a' + ops[i+1]%26}, n)
				a, err := m.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				a.Write(p)
				a.Close()
				model = append(model, p...)
			case 4: // reopen, truncating
				fh.Close()
				if fh, err = m.OpenFile(name, os.O_RDWR|os.O_TRUNC, 0); err != nil {
					t.Fatal(err)
				}
				model = model[:0]
			case 5: // a second name, then the first goes: the data stays
				if !linked {
					if err := m.Link(name, "/other"); err != nil {
						t.Fatal(err)
					}
					linked = true
				} else {
					if err := m.Remove(name); err != nil {
						t.Fatal(err)
					}
					if err := m.Rename("/other", name); err != nil {
						t.Fatal(err)
					}
					linked = false
				}
			case 6: // seek and read sequentially
				if _, err := fh.Seek(off, io.SeekStart); err != nil {
					t.Fatal(err)
				}
				got := make([]byte, n)
				k, _ := io.ReadFull(fh, got)
				if want := model[min(len(model), int(off)):min(len(model), int(off)+n)]; !bytes.Equal(got[:k], want) {
					t.Fatalf("read %d at %d: %x, want %x", n, off, got[:k], want)
				}
			case 7: // the zero-length write at a far offset does not grow the file
				if _, err := fh.WriteAt(nil, off+100); err != nil {
					t.Fatal(err)
				}
			}
			got := readAll(t, m, name)
			if got != string(model) {
				t.Fatalf("after op %d (%d): %x, want %x", i/3, ops[i]%8, got, model)
			}
			if fi, err := m.Stat(name); err != nil || fi.Size() != int64(len(model)) {
				t.Fatalf("stat: %v %v, want size %d", fi, err, len(model))
			}
			if q.Bytes() != int64(len(model)) {
				t.Fatalf("quota holds %d bytes, the file %d", q.Bytes(), len(model))
			}
		}
		if err := m.Remove(name); err != nil {
			t.Fatal(err)
		}
		if linked {
			m.Remove("/other")
		}
		if q.Bytes() != 0 || q.Files() != 0 {
			t.Fatalf("after removal the quota holds %d bytes, %d files", q.Bytes(), q.Files())
		}
	})
}

// TestMemFileHoles: a file grown by truncation or a far write holds no
// blocks for its holes, and reads them as zeros.
func TestMemFileHoles(t *testing.T) {
	m := NewMemFs(&Quota{})
	f, err := m.Create("/sparse")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("end"), 1<<30); err != nil {
		t.Fatal(err)
	}
	n := m.root.children["sparse"]
	held := 0
	for _, b := range n.data.blocks {
		held += cap(b)
	}
	if held > 1<<defaultChunkShift {
		t.Errorf("a 1 GiB sparse file holds %d bytes of blocks", held)
	}
	buf := make([]byte, 10)
	if k, err := f.ReadAt(buf, 1<<30-7); k != 10 || err != nil || string(buf) != "\x00\x00\x00\x00\x00\x00\x00end" {
		t.Errorf("ReadAt across the hole's end: %d %v %q", k, err, buf)
	}
	if _, err := f.ReadAt(buf, -1); err == nil {
		t.Error("ReadAt at a negative offset succeeded")
	}
	if _, err := f.WriteAt(buf, -1); err == nil {
		t.Error("WriteAt at a negative offset succeeded")
	}
}

// TestMemFileBlockGrowth: a file written in small pieces never copies more
// than a block at a time, and a small file holds no whole block.
func TestMemFileBlockGrowth(t *testing.T) {
	m := NewMemFs(&Quota{})
	f, _ := m.Create("/small")
	f.Write([]byte("hello\n"))
	f.Close()
	if b := m.root.children["small"].data.blocks; len(b) != 1 || cap(b[0]) > 64 {
		t.Errorf("a 6-byte file holds blocks of capacity %d", cap(b[0]))
	}
	f, _ = m.Create("/big")
	piece := bytes.Repeat([]byte("x"), 1000)
	for range 300 {
		f.Write(piece)
	}
	f.Close()
	for i, b := range m.root.children["big"].data.blocks {
		if cap(b) > 1<<defaultChunkShift {
			t.Fatalf("block %d has capacity %d", i, cap(b))
		}
	}
	if got := readAll(t, m, "/big"); got != string(bytes.Repeat(piece, 300)) {
		t.Errorf("read back %d bytes", len(got))
	}
}
