package od

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// kind is an output format of od -t.
type kind byte

const (
	kSigned   kind = 'd'
	kUnsigned kind = 'u'
	kOctal    kind = 'o'
	kHex      kind = 'x'
	kFloat    kind = 'f'
	kNamed    kind = 'a'
	kChar     kind = 'c'
)

// spec is one output format.
type spec struct {
	kind    kind
	size    int // bytes per datum
	width   int // field width without padding
	digits  int // zero-filled digits for o and x
	trailer bool
	pad     int // padding spread over the fields of a line
}

var (
	octDigits      = [17]int{0, 3, 6, 8, 11, 14, 16, 19, 22, 25, 27, 30, 32, 35, 38, 40, 43}
	signedDigits   = [17]int{1, 4, 6, 8, 11, 13, 16, 18, 20, 23, 25, 28, 30, 33, 35, 37, 40}
	unsignedDigits = [17]int{0, 3, 5, 8, 10, 13, 15, 17, 20, 22, 25, 27, 29, 32, 34, 37, 39}
	hexDigits      = [17]int{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32}
)

// typeError is a bad -t argument; its text is complete.
type typeError struct{ msg string }

func (e *typeError) Error() string { return e.msg }

// parseTypes decodes a -t type string into specs. quote quotes the string
// as GNU's quote() does.
func parseTypes(s string, quote func(string) string) ([]spec, error) {
	var specs []spec
	orig := s
	for len(s) > 0 {
		start := s
		var sp spec
		c := s[0]
		s = s[1:]
		switch c {
		case 'd', 'o', 'u', 'x':
			sp.kind = kind(c)
			size := 4
			if len(s) > 0 {
				switch s[0] {
				case 'C':
					size, s = 1, s[1:]
				case 'S':
					size, s = 2, s[1:]
				case 'I':
					size, s = 4, s[1:]
				case 'L':
					size, s = 8, s[1:]
				default:
					if s[0] >= '0' && s[0] <= '9' {
						n, rest := leadingNumber(s)
						s = rest
						if n != 1 && n != 2 && n != 4 && n != 8 {
							return nil, &typeError{fmt.Sprintf("invalid type string %s;\nthis system doesn't provide a %d-byte integral type", quote(start[:len(start)-len(s)]), n)}
						}
						size = n
					}
				}
			}
			sp.size = size
			switch c {
			case 'd':
				sp.width = signedDigits[size]
			case 'u':
				sp.width = unsignedDigits[size]
			case 'o':
				sp.width = octDigits[size]
				sp.digits = sp.width
			case 'x':
				sp.width = hexDigits[size]
				sp.digits = sp.width
			}
		case 'f':
			sp.kind = kFloat
			size := 8
			if len(s) > 0 {
				switch s[0] {
				case 'F':
					size, s = 4, s[1:]
				case 'D':
					size, s = 8, s[1:]
				case 'L':
					size, s = 16, s[1:]
				default:
					if s[0] >= '0' && s[0] <= '9' {
						n, rest := leadingNumber(s)
						s = rest
						if n != 4 && n != 8 && n != 16 {
							return nil, &typeError{fmt.Sprintf("invalid type string %s;\nthis system doesn't provide a %d-byte floating point type", quote(start[:len(start)-len(s)]), n)}
						}
						size = n
					}
				}
			}
			sp.size = size
			switch size {
			case 4:
				sp.width = 15
			case 8:
				sp.width = 24
			default:
				sp.width = 29
			}
		case 'a':
			sp.kind, sp.size, sp.width = kNamed, 1, 3
		case 'c':
			sp.kind, sp.size, sp.width = kChar, 1, 3
		default:
			return nil, &typeError{fmt.Sprintf("invalid character '%c' in type string %s", c, quote(orig))}
		}
		if len(s) > 0 && s[0] == 'z' {
			sp.trailer = true
			s = s[1:]
		}
		specs = append(specs, sp)
	}
	return specs, nil
}

func leadingNumber(s string) (int, string) {
	n := 0
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n < 1<<20 {
			n = n*10 + int(s[i]-'0')
		}
		i++
	}
	return n, s[i:]
}

var asciiNames = [33]string{
	"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel",
	"bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb",
	"can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp",
}

func isPrint(b byte) bool { return b >= 0x20 && b < 0x7f }

// appendPadded right-aligns s in width columns.
func appendPadded(dst []byte, s []byte, width int) []byte {
	for i := len(s); i < width; i++ {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}

// appendField formats one datum of sp from b (len(b) == sp.size) in width
// columns.
func (sp *spec) appendField(dst, tmp []byte, b []byte, order binary.ByteOrder, width int) ([]byte, []byte) {
	tmp = tmp[:0]
	switch sp.kind {
	case kNamed:
		c := b[0] & 0x7f
		switch {
		case c == 0x7f:
			tmp = append(tmp, "del"...)
		case c <= 0x20:
			tmp = append(tmp, asciiNames[c]...)
		default:
			tmp = append(tmp, c)
		}
	case kChar:
		c := b[0]
		switch c {
		case 0:
			tmp = append(tmp, `\0`...)
		case '\a':
			tmp = append(tmp, `\a`...)
		case '\b':
			tmp = append(tmp, `\b`...)
		case '\f':
			tmp = append(tmp, `\f`...)
		case '\n':
			tmp = append(tmp, `\n`...)
		case '\r':
			tmp = append(tmp, `\r`...)
		case '\t':
			tmp = append(tmp, `\t`...)
		case '\v':
			tmp = append(tmp, `\v`...)
		default:
			if isPrint(c) {
				tmp = append(tmp, c)
			} else {
				tmp = append(tmp, '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
			}
		}
	case kFloat:
		tmp = appendFloat(tmp, b, order)
	default:
		var u uint64
		switch sp.size {
		case 1:
			u = uint64(b[0])
		case 2:
			u = uint64(order.Uint16(b))
		case 4:
			u = uint64(order.Uint32(b))
		case 8:
			u = order.Uint64(b)
		}
		switch sp.kind {
		case kSigned:
			shift := 64 - 8*uint(sp.size)
			tmp = strconv.AppendInt(tmp, int64(u<<shift)>>shift, 10)
		case kUnsigned:
			tmp = strconv.AppendUint(tmp, u, 10)
		case kOctal, kHex:
			base := 8
			if sp.kind == kHex {
				base = 16
			}
			tmp = appendZeroPadded(tmp, u, base, sp.digits)
		}
	}
	return appendPadded(dst, tmp, width), tmp
}

const zeros = "0000000000000000000000000000000000000000000000000000"

// appendZeroPadded appends u in base with leading zeros to width digits
// (%0*o, %0*x), for od's addresses and its octal and hex columns.
func appendZeroPadded(dst []byte, u uint64, base, width int) []byte {
	n := len(dst)
	dst = strconv.AppendUint(dst, u, base)
	if z := width - (len(dst) - n); z > 0 {
		dst = append(dst, zeros[:z]...)
		copy(dst[n+z:], dst[n:len(dst)-z])
		copy(dst[n:], zeros[:z])
	}
	return dst
}

// appendFloat formats a float the way gnulib's ftoastr does: the shortest
// "%.*g" (starting at the type's DIG precision) that reads back exactly.
func appendFloat(dst []byte, b []byte, order binary.ByteOrder) []byte {
	switch len(b) {
	case 4:
		f := math.Float32frombits(order.Uint32(b))
		return appendG(dst, float64(f), 32, 6, f != 0 && math.Abs(float64(f)) < 0x1p-126)
	case 8:
		f := math.Float64frombits(order.Uint64(b))
		return appendG(dst, f, 64, 15, f != 0 && math.Abs(f) < 0x1p-1022)
	}
	return appendLongDouble(dst, b, order)
}

func appendG(dst []byte, f float64, bits int, dig int, subnormal bool) []byte {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return append(dst, "-nan"...)
		}
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	short := strconv.FormatFloat(f, 'e', -1, bits)
	n := 0
	for i := 0; i < len(short) && short[i] != 'e'; i++ {
		if short[i] >= '0' && short[i] <= '9' {
			n++
		}
	}
	p := dig
	if subnormal {
		p = 1
	}
	if n > p {
		p = n
	}
	return strconv.AppendFloat(dst, f, 'g', p, bits)
}

// appendLongDouble formats an x87 80-bit extended value stored in 16
// bytes.
func appendLongDouble(dst []byte, b []byte, order binary.ByteOrder) []byte {
	var mant uint64
	var se uint16
	if order == binary.LittleEndian {
		mant = binary.LittleEndian.Uint64(b[0:8])
		se = binary.LittleEndian.Uint16(b[8:10])
	} else {
		// Big-endian layout of a 16-byte long double: padding first.
		se = binary.BigEndian.Uint16(b[6:8])
		mant = binary.BigEndian.Uint64(b[8:16])
	}
	neg := se&0x8000 != 0
	exp := int(se & 0x7fff)
	intBit := mant>>63 != 0
	if exp == 0x7fff {
		if mant<<1 == 0 && intBit {
			if neg {
				return append(dst, "-inf"...)
			}
			return append(dst, "inf"...)
		}
		if neg {
			return append(dst, "-nan"...)
		}
		return append(dst, "nan"...)
	}
	if exp != 0 && !intBit {
		if neg {
			return append(dst, "-nan"...)
		}
		return append(dst, "nan"...)
	}
	if mant == 0 {
		if neg {
			return append(dst, "-0"...)
		}
		return append(dst, '0')
	}
	e := exp - 16383 - 63
	if exp == 0 {
		e = 1 - 16383 - 63
	}
	prec := uint(64)
	if exp == 0 {
		prec = uint(bits.Len64(mant))
	}
	f := new(big.Float).SetPrec(prec).SetUint64(mant)
	f.SetMantExp(f, e)
	if neg {
		f.Neg(f)
	}
	short := f.Text('e', -1)
	n := 0
	for i := 0; i < len(short) && short[i] != 'e'; i++ {
		if short[i] >= '0' && short[i] <= '9' {
			n++
		}
	}
	p := 18
	if exp == 0 {
		p = 1
	}
	if n > p {
		p = n
	}
	return append(dst, cG(f, p)...)
}

// cG formats f like C's "%.*g".
func cG(f *big.Float, p int) string {
	s := f.Text('e', p-1)
	// s is like -d.ddde+XX
	mant, expStr, _ := cut(s, 'e')
	x, _ := strconv.Atoi(expStr)
	if x < -4 || x >= p {
		mant = trimZeros(mant)
		sign := "+"
		if x < 0 {
			sign = "-"
			x = -x
		}
		es := strconv.Itoa(x)
		if len(es) < 2 {
			es = "0" + es
		}
		return mant + "e" + sign + es
	}
	return trimZeros(f.Text('f', p-1-x))
}

func cut(s string, c byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func trimZeros(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			j := len(s)
			for j > i+1 && s[j-1] == '0' {
				j--
			}
			if j == i+1 {
				j = i
			}
			return s[:j]
		}
	}
	return s
}
