// Package codec holds the compression formats beyond gzip that the
// compressor commands (bzip2, xz, zstd) and tar share: a streaming reader
// and writer for each, on well-kept libraries (the standard library's
// bzip2 reader, dsnet's bzip2 writer, ulikunitz's xz, klauspost's zstd).
// Everything streams: nothing holds a whole input or output in memory, so
// a decompression bomb is bounded by the sandbox's write and output
// budgets, and the decoders' own memory is capped here.
package codec

import (
	"bufio"
	"bytes"
	stdbzip2 "compress/bzip2"
	"encoding/binary"
	"errors"
	"io"

	dsbzip2 "github.com/dsnet/compress/bzip2"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// Format is one compression format.
type Format struct {
	Name   string // bzip2, xz, zstd
	Suffix string // .bz2, .xz, .zst
	// Magic starts every stream of the format.
	Magic []byte
	// Sniff, for a format without magic (lzma), tells from the first
	// HeadLen bytes whether a stream may be of the format.
	Sniff   func(head []byte) bool
	HeadLen int
	// NewReader decompresses r; close the result when done.
	NewReader func(r io.Reader) (io.ReadCloser, error)
	// NewWriter compresses to w at level (1..9, 19 for zstd; 0: default);
	// Close flushes the end of the stream (it does not close w).
	NewWriter func(w io.Writer, level int) (io.WriteCloser, error)
}

// MaxWindow caps the memory a zstd or xz stream may ask the decoder for:
// zstd -19 and xz -9 use 8 and 64 MiB, and nothing the sandbox writes
// needs more.
const MaxWindow = 128 << 20

var Bzip2 = &Format{
	Name: "bzip2", Suffix: ".bz2", Magic: []byte("BZh"),
	NewReader: func(r io.Reader) (io.ReadCloser, error) {
		return io.NopCloser(stdbzip2.NewReader(r)), nil
	},
	NewWriter: func(w io.Writer, level int) (io.WriteCloser, error) {
		if level <= 0 || level > 9 {
			level = 9 // bzip2's default block size
		}
		return dsbzip2.NewWriter(w, &dsbzip2.WriterConfig{Level: level})
	},
}

// xzBlockSize bounds the uncompressed size of each xz block.
const xzBlockSize = 64 << 10

// presetDict is the dictionary size of xz's (and lzma's) compression
// level presets: 1 MiB at -0/-1 up to 64 MiB at -9; -6 (8 MiB) is the
// default.
func presetDict(level int) int {
	dict := map[int]int{1: 1 << 20, 2: 2 << 20, 3: 4 << 20, 4: 4 << 20, 5: 8 << 20, 6: 8 << 20, 7: 16 << 20, 8: 32 << 20, 9: 64 << 20}[level]
	if dict == 0 {
		dict = 8 << 20
	}
	return dict
}

var Xz = &Format{
	Name: "xz", Suffix: ".xz", Magic: []byte{0xfd, '7', 'z', 'X', 'Z', 0},
	NewReader: func(r io.Reader) (io.ReadCloser, error) {
		br := bufio.NewReaderSize(r, 12+1024)
		if err := checkXzDict(br); err != nil {
			return nil, err
		}
		zr, err := xz.ReaderConfig{DictCap: 4096}.NewReader(br)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(zr), nil
	},
	NewWriter: func(w io.Writer, level int) (io.WriteCloser, error) {
		dict := presetDict(level)
		// The encoder compresses an LZMA2 chunk (up to 2 MiB of input) in
		// one go when it fills, seconds of work it cannot interrupt; a
		// block ends the chunk, so 64 KiB blocks bound each burst to
		// milliseconds (tens under -race) and let the command stop with
		// its call. The price: blocks do not share their dictionary
		// (about 15% larger output on source code than one block; on
		// very repetitive input, smaller).
		return xz.WriterConfig{DictCap: dict, BlockSize: xzBlockSize}.NewWriter(w)
	},
}

var Zstd = &Format{
	Name: "zstd", Suffix: ".zst", Magic: []byte{0x28, 0xb5, 0x2f, 0xfd},
	NewReader: func(r io.Reader) (io.ReadCloser, error) {
		d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(MaxWindow), zstd.WithDecoderMaxMemory(MaxWindow))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	},
	NewWriter: func(w io.Writer, level int) (io.WriteCloser, error) {
		l := zstd.SpeedDefault // zstd -3
		switch {
		case level == 0:
		case level <= 2:
			l = zstd.SpeedFastest
		case level <= 5:
			l = zstd.SpeedDefault
		case level <= 9:
			l = zstd.SpeedBetterCompression
		default:
			l = zstd.SpeedBestCompression
		}
		return zstd.NewWriter(w, zstd.WithEncoderLevel(l), zstd.WithEncoderConcurrency(1))
	},
}

// Lzma is the legacy .lzma format of LZMA Utils (xz --format=lzma): a
// 13-byte header (properties, dictionary size, uncompressed size) and no
// magic.
var Lzma = &Format{
	Name: "lzma", Suffix: ".lzma", HeadLen: 13,
	Sniff: func(head []byte) bool {
		if len(head) < 13 || head[0] > 224 {
			return false
		}
		size := binary.LittleEndian.Uint64(head[5:13])
		return size == ^uint64(0) || size < 1<<38
	},
	NewReader: func(r io.Reader) (io.ReadCloser, error) {
		br := bufio.NewReaderSize(r, 64)
		if head, _ := br.Peek(13); len(head) == 13 && binary.LittleEndian.Uint32(head[1:5]) > MaxWindow {
			return nil, ErrMemLimit
		}
		zr, err := lzma.NewReader(br)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(zr), nil
	},
	NewWriter: func(w io.Writer, level int) (io.WriteCloser, error) {
		dict := presetDict(level)
		return lzma.WriterConfig{DictCap: dict, EOSMarker: true}.NewWriter(w)
	},
}

// Matches reports whether head (HeaderLen bytes) starts a stream of f.
func (f *Format) Matches(head []byte) bool {
	if f.Sniff != nil {
		return f.Sniff(head)
	}
	return bytes.Equal(head, f.Magic)
}

// HeaderLen is how many bytes Matches needs.
func (f *Format) HeaderLen() int {
	if f.Sniff != nil {
		return f.HeadLen
	}
	return len(f.Magic)
}

// Formats lists the formats, for detection by magic.
var Formats = []*Format{Bzip2, Xz, Zstd}

// Detect names the format whose magic starts head, or nil.
func Detect(head []byte) *Format {
	for _, f := range Formats {
		if bytes.HasPrefix(head, f.Magic) {
			return f
		}
	}
	return nil
}

// ErrMemLimit is returned for a stream that asks for more decoder memory
// than MaxWindow.
var ErrMemLimit = errors.New("memory usage limit reached")

// checkXzDict reads ahead to the first block header of an xz stream and
// refuses an LZMA2 dictionary above MaxWindow, which the decoder would
// otherwise allocate whole (a 4 GiB dictionary fits in one header byte).
// Later blocks are not looked at: xz gives every block of a file the same
// dictionary, so this catches all but hand-made streams.
func checkXzDict(br *bufio.Reader) error {
	head, _ := br.Peek(12 + 1024)
	if len(head) < 14 {
		return nil // too short: the decoder reports it
	}
	blk := head[12:]
	size := (int(blk[0]) + 1) * 4
	if blk[0] == 0 || size > len(blk) {
		return nil
	}
	flags := blk[1]
	pos := 2
	varint := func() (uint64, bool) {
		var v uint64
		for shift := 0; pos < size && shift < 63; shift += 7 {
			b := blk[pos]
			pos++
			v |= uint64(b&0x7f) << shift
			if b < 0x80 {
				return v, true
			}
		}
		return 0, false
	}
	if flags&0x40 != 0 {
		if _, ok := varint(); !ok {
			return nil
		}
	}
	if flags&0x80 != 0 {
		if _, ok := varint(); !ok {
			return nil
		}
	}
	for n := int(flags&3) + 1; n > 0; n-- {
		id, ok := varint()
		if !ok {
			return nil
		}
		psize, ok := varint()
		if !ok || pos+int(psize) > size {
			return nil
		}
		if id == 0x21 && psize == 1 {
			b := blk[pos]
			if b > 40 {
				return nil
			}
			dict := uint64(2|b&1) << (b/2 + 11)
			if dict > MaxWindow {
				return ErrMemLimit
			}
		}
		pos += int(psize)
	}
	return nil
}
