package digest

import (
	"encoding/binary"
	"hash"
	"math/bits"
)

// sm3 is the Chinese national hash standard GB/T 32905-2016, which GNU
// cksum offers as -a sm3. Go's libraries do not carry it; it is a
// Merkle–Damgård hash with SHA-256's padding and a 64-round compression.
type sm3 struct {
	v   [8]uint32
	buf [64]byte
	n   int
	len uint64
}

var sm3IV = [8]uint32{0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600, 0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e}

func newSM3() hash.Hash { d := &sm3{}; d.Reset(); return d }

func (d *sm3) Reset()         { d.v = sm3IV; d.n = 0; d.len = 0 }
func (d *sm3) Size() int      { return 32 }
func (d *sm3) BlockSize() int { return 64 }

func (d *sm3) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.n > 0 {
		k := copy(d.buf[d.n:], p)
		d.n += k
		p = p[k:]
		if d.n < 64 {
			return n, nil
		}
		d.block(d.buf[:])
		d.n = 0
	}
	for len(p) >= 64 {
		d.block(p[:64])
		p = p[64:]
	}
	d.n = copy(d.buf[:], p)
	return n, nil
}

func (d *sm3) Sum(in []byte) []byte {
	c := *d
	var pad [72]byte
	pad[0] = 0x80
	k := 56 - int(c.len%64)
	if k <= 0 {
		k += 64
	}
	binary.BigEndian.PutUint64(pad[k:], c.len*8)
	c.Write(pad[:k+8])
	for _, w := range c.v {
		in = binary.BigEndian.AppendUint32(in, w)
	}
	return in
}

func p0(x uint32) uint32 { return x ^ bits.RotateLeft32(x, 9) ^ bits.RotateLeft32(x, 17) }
func p1(x uint32) uint32 { return x ^ bits.RotateLeft32(x, 15) ^ bits.RotateLeft32(x, 23) }

func (d *sm3) block(p []byte) {
	var w [68]uint32
	for i := 0; i < 16; i++ {
		w[i] = binary.BigEndian.Uint32(p[4*i:])
	}
	for j := 16; j < 68; j++ {
		w[j] = p1(w[j-16]^w[j-9]^bits.RotateLeft32(w[j-3], 15)) ^ bits.RotateLeft32(w[j-13], 7) ^ w[j-6]
	}
	a, b, c, dd, e, f, g, h := d.v[0], d.v[1], d.v[2], d.v[3], d.v[4], d.v[5], d.v[6], d.v[7]
	for j := 0; j < 64; j++ {
		t := uint32(0x79cc4519)
		if j >= 16 {
			t = 0x7a879d8a
		}
		a12 := bits.RotateLeft32(a, 12)
		ss1 := bits.RotateLeft32(a12+e+bits.RotateLeft32(t, j%32), 7)
		ss2 := ss1 ^ a12
		var ff, gg uint32
		if j < 16 {
			ff = a ^ b ^ c
			gg = e ^ f ^ g
		} else {
			ff = a&b | a&c | b&c
			gg = e&f | ^e&g
		}
		tt1 := ff + dd + ss2 + (w[j] ^ w[j+4])
		tt2 := gg + h + ss1 + w[j]
		dd = c
		c = bits.RotateLeft32(b, 9)
		b = a
		a = tt1
		h = g
		g = bits.RotateLeft32(f, 19)
		f = e
		e = p0(tt2)
	}
	d.v[0] ^= a
	d.v[1] ^= b
	d.v[2] ^= c
	d.v[3] ^= dd
	d.v[4] ^= e
	d.v[5] ^= f
	d.v[6] ^= g
	d.v[7] ^= h
}
