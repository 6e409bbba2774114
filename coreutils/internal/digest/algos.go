package digest

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"hash"
	"hash/crc32"
	"math/bits"
)

// Algo is a checksum algorithm, in the order of cksum's --algorithm list.
type Algo int

const (
	SYSV Algo = iota
	BSD
	CRC
	CRC32B
	MD5
	SHA1
	SHA224
	SHA256
	SHA384
	SHA512
	BLAKE2B
	SM3
)

// info describes an algorithm: its cksum -a name, its tag in BSD-style
// lines, the standalone command, and its full digest size in bits.
var info = []struct {
	arg, tag, cmd string
	bits          int
}{
	SYSV:    {"sysv", "SYSV", "sum", 16},
	BSD:     {"bsd", "BSD", "sum", 16},
	CRC:     {"crc", "CRC", "cksum", 32},
	CRC32B:  {"crc32b", "CRC32B", "", 32},
	MD5:     {"md5", "MD5", "md5sum", 128},
	SHA1:    {"sha1", "SHA1", "sha1sum", 160},
	SHA224:  {"sha224", "SHA224", "sha224sum", 224},
	SHA256:  {"sha256", "SHA256", "sha256sum", 256},
	SHA384:  {"sha384", "SHA384", "sha384sum", 384},
	SHA512:  {"sha512", "SHA512", "sha512sum", 512},
	BLAKE2B: {"blake2b", "BLAKE2b", "b2sum", 512},
	SM3:     {"sm3", "SM3", "", 256},
}

// BLAKE2b makes a BLAKE2b hash of size bytes: b2sum and cksum pass
// blake2.New, so that this package, which md5sum and the sha*sum commands
// also link, does not import x/crypto/blake2b (see package blake2).
type BLAKE2b func(size int) hash.Hash

// newHash returns a hash for a digest algorithm; bits matters for BLAKE2b.
func newHash(a Algo, bits int, newBLAKE2b BLAKE2b) hash.Hash {
	switch a {
	case MD5:
		return md5.New()
	case SHA1:
		return sha1.New()
	case SHA224:
		return sha256.New224()
	case SHA256:
		return sha256.New()
	case SHA384:
		return sha512.New384()
	case SHA512:
		return sha512.New()
	case BLAKE2B:
		return newBLAKE2b(bits / 8)
	case SM3:
		return newSM3()
	}
	panic("digest: not a digest algorithm")
}

// revByte reverses the bits of each byte value.
var revByte = func() (t [256]byte) {
	for i := range t {
		t[i] = bits.Reverse8(uint8(i))
	}
	return
}()

// CRC is the POSIX cksum CRC (polynomial 0x04C11DB7, most significant bit
// first, the length appended, the result inverted). It is the IEEE
// polynomial, so the work is done by hash/crc32's accelerated reflected
// CRC over bit-reversed bytes.
type CRC32 struct {
	s   uint32 // crc32 package state: the complement of the reflected register
	n   uint64
	buf []byte
}

// NewCRC returns a POSIX CRC in its initial state.
func NewCRC() *CRC32 { return &CRC32{s: ^uint32(0), buf: make([]byte, 32<<10)} }

func (c *CRC32) update(p []byte) {
	for len(p) > 0 {
		k := min(len(p), len(c.buf))
		b := c.buf[:k]
		i := 0
		// Reverse the bits of each byte eight bytes at a time.
		for ; i+8 <= k; i += 8 {
			w := binary.LittleEndian.Uint64(p[i:])
			binary.LittleEndian.PutUint64(b[i:], bits.ReverseBytes64(bits.Reverse64(w)))
		}
		for ; i < k; i++ {
			b[i] = revByte[p[i]]
		}
		c.s = crc32.Update(c.s, crc32.IEEETable, b)
		p = p[k:]
	}
}

func (c *CRC32) Write(p []byte) (int, error) {
	c.n += uint64(len(p))
	c.update(p)
	return len(p), nil
}

// Sum32 is the checksum of the data written so far.
func (c *CRC32) Sum32() uint32 {
	s := c.s
	var lb [8]byte
	k := 0
	for n := c.n; n != 0; n >>= 8 {
		lb[k] = byte(n)
		k++
	}
	c.update(lb[:k])
	r := ^bits.Reverse32(^c.s)
	c.s = s
	return r
}

// BSDSum is the BSD rotating 16-bit checksum of sum -r.
type BSDSum struct{ sum uint32 }

func (b *BSDSum) Write(p []byte) (int, error) {
	s := b.sum
	for _, v := range p {
		s = (s >> 1) + ((s & 1) << 15)
		s = (s + uint32(v)) & 0xffff
	}
	b.sum = s
	return len(p), nil
}

// Sum16 is the checksum so far.
func (b *BSDSum) Sum16() uint32 { return b.sum }

// SysVSum is the System V checksum of sum -s.
type SysVSum struct{ sum uint64 }

func (s *SysVSum) Write(p []byte) (int, error) {
	t := s.sum
	for _, v := range p {
		t += uint64(v)
	}
	s.sum = t
	return len(p), nil
}

// Sum16 folds the byte total to 16 bits.
func (s *SysVSum) Sum16() uint32 {
	r := uint32(s.sum&0xffff) + uint32((s.sum&0xffffffff)>>16)
	return (r & 0xffff) + (r >> 16)
}
