package iconv

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
)

// status is what reading one character from the input found.
type status int

const (
	ok         status = iota
	illegal           // not a character of the source charset
	incomplete        // the input ends inside a character
)

// charset converts between one coded character set and runes.
type charset struct {
	name string
	// decode reads the first character of b: its rune and length.
	decode func(b []byte) (rune, int, status)
	// encode appends r, or reports that the charset cannot represent it.
	encode func(dst []byte, r rune) ([]byte, bool)
	// bom is written before the output of charsets that mark their byte
	// order (UTF-16, UTF-32); reading skips a leading one.
	bom []byte
	// detect reads a byte order mark at the start of the input.
	detect func(b []byte) (n int, swap bool)
}

// names of the charsets this iconv knows, as -l lists them.
var names = []string{
	"ANSI_X3.4-1968", "ASCII", "BIG5", "CP437", "CP850", "CP852", "CP866", "CP1250", "CP1251",
	"CP1252", "CP1253", "CP1254", "CP1255", "CP1256", "CP1257", "CP1258", "EUC-JP", "EUC-KR",
	"GB18030", "GBK", "ISO-2022-JP", "ISO-8859-1", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4",
	"ISO-8859-5", "ISO-8859-6", "ISO-8859-7", "ISO-8859-8", "ISO-8859-9", "ISO-8859-10",
	"ISO-8859-13", "ISO-8859-14", "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "LATIN1",
	"MACINTOSH", "SHIFT_JIS", "SJIS", "UCS-2", "UCS-2BE", "UCS-2LE", "UCS-4", "UCS-4BE", "UCS-4LE",
	"US-ASCII", "UTF-16", "UTF-16BE", "UTF-16LE", "UTF-32", "UTF-32BE", "UTF-32LE", "UTF-8",
	"UTF8", "WINDOWS-1250", "WINDOWS-1251", "WINDOWS-1252", "WINDOWS-1253", "WINDOWS-1254",
	"WINDOWS-1255", "WINDOWS-1256", "WINDOWS-1257", "WINDOWS-1258",
}

// lookup finds a charset by any of the names glibc accepts for it
// (case-insensitive, with or without dashes and underscores).
func lookup(name string) (*charset, bool) {
	key := strings.ToUpper(name)
	flat := strings.NewReplacer("-", "", "_", "").Replace(key)
	switch flat {
	case "UTF8":
		return utf8Charset(), true
	case "ASCII", "USASCII", "ANSIX3.41968", "646", "ISO646US":
		return asciiCharset(), true
	case "UTF16":
		return wide(2, false, true, true), true
	case "UTF16LE":
		return wide(2, false, false, true), true
	case "UTF16BE":
		return wide(2, true, false, true), true
	case "UCS2", "UCS2LE":
		return wide(2, false, false, false), true
	case "UCS2BE", "UNICODEBIG":
		return wide(2, true, false, false), true
	case "UTF32":
		return wide(4, false, true, true), true
	case "UTF32LE", "UCS4LE":
		return wide(4, false, false, true), true
	case "UTF32BE", "UCS4", "UCS4BE":
		return wide(4, true, false, true), true
	}
	iana := key
	switch {
	case strings.HasPrefix(flat, "CP125") && len(flat) == 6:
		iana = "windows-" + flat[2:]
	case strings.HasPrefix(flat, "ISO8859") && len(flat) > 7:
		iana = "ISO-8859-" + flat[7:]
	case flat == "SJIS":
		iana = "Shift_JIS"
	case flat == "MACINTOSH" || flat == "MAC":
		iana = "macintosh"
	}
	enc, err := ianaindex.IANA.Encoding(iana)
	if err != nil || enc == nil {
		return nil, false
	}
	if cm, isMap := enc.(*charmap.Charmap); isMap {
		return byteCharset(cm), true
	}
	return multiByte(enc), true
}

func utf8Charset() *charset {
	return &charset{
		name: "UTF-8",
		decode: func(b []byte) (rune, int, status) {
			r, n := utf8.DecodeRune(b)
			if r == utf8.RuneError && n <= 1 {
				if !utf8.FullRune(b) {
					return 0, 0, incomplete
				}
				return 0, 0, illegal
			}
			return r, n, ok
		},
		encode: func(dst []byte, r rune) ([]byte, bool) { return utf8.AppendRune(dst, r), true },
	}
}

func asciiCharset() *charset {
	return &charset{
		name: "ASCII",
		decode: func(b []byte) (rune, int, status) {
			if b[0] >= 0x80 {
				return 0, 0, illegal
			}
			return rune(b[0]), 1, ok
		},
		encode: func(dst []byte, r rune) ([]byte, bool) {
			if r >= 0x80 {
				return dst, false
			}
			return append(dst, byte(r)), true
		},
	}
}

// wide is UTF-16/UCS-2 (size 2) or UTF-32/UCS-4 (size 4) in one byte
// order; with bom, the output starts with a mark and the input may. Like
// glibc, the unmarked forms read little-endian unless a mark says
// otherwise; UCS-2 has no surrogates.
func wide(size int, big, bom, surrogates bool) *charset {
	order := func(swap bool) byteOrder {
		if big != swap {
			return binary.BigEndian
		}
		return binary.LittleEndian
	}
	cs := &charset{name: "UTF-16"}
	var swapped bool
	cs.decode = func(b []byte) (rune, int, status) {
		bo := order(swapped)
		if len(b) < size {
			return 0, 0, incomplete
		}
		if size == 4 {
			r := rune(bo.Uint32(b))
			if r > utf8.MaxRune || r >= 0xd800 && r < 0xe000 {
				return 0, 0, illegal
			}
			return r, 4, ok
		}
		u := rune(bo.Uint16(b))
		switch {
		case u >= 0xd800 && u < 0xdc00 && surrogates:
			if len(b) < 4 {
				return 0, 0, incomplete
			}
			lo := rune(bo.Uint16(b[2:]))
			if lo < 0xdc00 || lo >= 0xe000 {
				return 0, 0, illegal
			}
			return 0x10000 + (u-0xd800)<<10 + (lo - 0xdc00), 4, ok
		case u >= 0xd800 && u < 0xe000:
			return 0, 0, illegal
		}
		return u, 2, ok
	}
	cs.encode = func(dst []byte, r rune) ([]byte, bool) {
		bo := order(false)
		if size == 4 {
			return bo.AppendUint32(dst, uint32(r)), true
		}
		if r >= 0x10000 {
			if !surrogates {
				return dst, false
			}
			r -= 0x10000
			dst = bo.AppendUint16(dst, uint16(0xd800+r>>10))
			return bo.AppendUint16(dst, uint16(0xdc00+r&0x3ff)), true
		}
		return bo.AppendUint16(dst, uint16(r)), true
	}
	if bom {
		// glibc writes these in little-endian order, the machine's.
		if size == 2 {
			cs.bom = []byte{0xff, 0xfe}
		} else {
			cs.bom = []byte{0xff, 0xfe, 0, 0}
		}
		cs.detect = func(b []byte) (int, bool) {
			switch {
			case size == 2 && len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
				swapped = big
				return 2, swapped
			case size == 2 && len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
				swapped = !big
				return 2, swapped
			case size == 4 && len(b) >= 4 && b[0] == 0xff && b[1] == 0xfe && b[2] == 0 && b[3] == 0:
				swapped = big
				return 4, swapped
			case size == 4 && len(b) >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xfe && b[3] == 0xff:
				swapped = !big
				return 4, swapped
			}
			return 0, false
		}
		if size == 4 {
			cs.name = "UTF-32"
		}
	}
	return cs
}

type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// byteCharset is a single-byte charset: bytes it leaves undefined are
// illegal input.
func byteCharset(cm *charmap.Charmap) *charset {
	return &charset{
		name: cm.String(),
		decode: func(b []byte) (rune, int, status) {
			r := cm.DecodeByte(b[0])
			if r == utf8.RuneError {
				return 0, 0, illegal
			}
			return r, 1, ok
		},
		encode: func(dst []byte, r rune) ([]byte, bool) {
			c, found := cm.EncodeRune(r)
			if !found {
				return dst, false
			}
			return append(dst, c), true
		},
	}
}

// multiByte is a multi-byte charset of golang.org/x/text (Shift_JIS,
// EUC-JP, GBK, Big5, ...), decoded and encoded one character at a time.
func multiByte(enc encoding.Encoding) *charset {
	dec := enc.NewDecoder()
	e := enc.NewEncoder()
	return &charset{
		name: "multibyte",
		decode: func(b []byte) (rune, int, status) {
			// Try the shortest prefix that decodes to one character.
			for n := 1; n <= 4 && n <= len(b); n++ {
				out, err := dec.Bytes(b[:n])
				if err != nil || len(out) == 0 {
					continue
				}
				r, size := utf8.DecodeRune(out)
				if r == utf8.RuneError || size != len(out) {
					continue
				}
				return r, n, ok
			}
			if len(b) < 2 {
				return 0, 0, incomplete
			}
			return 0, 0, illegal
		},
		encode: func(dst []byte, r rune) ([]byte, bool) {
			out, err := e.Bytes(utf8.AppendRune(nil, r))
			if err != nil {
				return dst, false
			}
			return append(dst, out...), true
		},
	}
}
