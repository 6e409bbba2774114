package hexdump

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/internal/printf"
)

// Conversion kinds of a format piece.
const (
	fText = iota
	fAddress
	fEndAddress
	fInt    // d i
	fUint   // o u x X
	fChar   // c
	fC      // _c
	fP      // _p
	fU      // _u
	fDouble // e E f g G
	fString // s
	fBpad   // blank padding past the end of data
)

// piece is one conversion with the text before it, or plain text.
type piece struct {
	kind    int
	pre     string // text before the conversion
	flags   string // printf flags
	width   int
	prec    int // -1: none
	verb    byte
	base    byte // address base: d o x
	bcnt    int
	text    string // fText: the text; other kinds: text after (never)
	nospace bool   // drop the text's last character on the last repetition
}

// unit is an iteration count, byte count and format string.
type unit struct {
	reps    int
	setRep  bool
	bcnt    int
	pieces  []*piece
	ignore  bool // holds %_A: printed only at the end
	fmtText string
}

// group is one -e format string.
type group struct {
	units []*unit
	bcnt  int
}

type formatError struct{ msg string }

func (e *formatError) Error() string { return e.msg }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseGroup parses one format string: { [iterations/][bytes] "format" }.
func parseGroup(s string) (*group, error) {
	g := &group{}
	bad := &formatError{fmt.Sprintf("bad format {%s}", s)}
	p := 0
	for p < len(s) {
		for p < len(s) && isSpace(s[p]) {
			p++
		}
		if p >= len(s) {
			break
		}
		u := &unit{reps: 1}
		if isDigit(s[p]) {
			start := p
			for p < len(s) && isDigit(s[p]) {
				p++
			}
			if p >= len(s) || (!isSpace(s[p]) && s[p] != '/') {
				return nil, bad
			}
			u.reps, _ = strconv.Atoi(s[start:p])
			u.setRep = true
			if isSpace(s[p]) {
				for p < len(s) && isSpace(s[p]) {
					p++
				}
			}
		}
		if p < len(s) && s[p] == '/' {
			p++
			for p < len(s) && isSpace(s[p]) {
				p++
			}
		}
		if p < len(s) && isDigit(s[p]) {
			start := p
			for p < len(s) && isDigit(s[p]) {
				p++
			}
			if p >= len(s) || !isSpace(s[p]) {
				return nil, bad
			}
			u.bcnt, _ = strconv.Atoi(s[start:p])
			for p < len(s) && isSpace(s[p]) {
				p++
			}
		}
		if p >= len(s) || s[p] != '"' {
			return nil, bad
		}
		p++
		start := p
		for p < len(s) && s[p] != '"' {
			p++
		}
		if p >= len(s) {
			return nil, bad
		}
		u.fmtText = unescape(s[start:p])
		p++
		g.units = append(g.units, u)
	}
	return g, nil
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		// hexdump knows the C escapes but \e.
		if l, ok := printf.Letter(s[i]); ok && s[i] != 'e' {
			b.WriteByte(l)
			continue
		}
		switch s[i] {
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// rewrite splits each unit's format into pieces and sizes them.
func (g *group) rewrite() error {
	for _, u := range g.units {
		f := u.fmtText
		nconv := 0
		for len(f) > 0 {
			i := strings.IndexByte(f, '%')
			if i < 0 {
				u.pieces = append(u.pieces, &piece{kind: fText, text: f})
				break
			}
			pc := &piece{pre: f[:i], prec: -1}
			j := i + 1
			for j < len(f) && strings.IndexByte("-+ #0", f[j]) >= 0 {
				j++
			}
			pc.flags = f[i+1 : j]
			ws := j
			for j < len(f) && isDigit(f[j]) {
				j++
			}
			if j > ws {
				pc.width, _ = strconv.Atoi(f[ws:j])
			}
			if j < len(f) && f[j] == '.' {
				j++
				ps := j
				for j < len(f) && isDigit(f[j]) {
					j++
				}
				pc.prec, _ = strconv.Atoi(f[ps:j])
			}
			if j >= len(f) {
				return &formatError{fmt.Sprintf("bad format {%s}", u.fmtText)}
			}
			if u.bcnt != 0 && nconv > 0 {
				return &formatError{"byte count with multiple conversion characters"}
			}
			conv := f[j]
			j++
			switch conv {
			case 'c':
				pc.kind, pc.verb = fChar, 'c'
				if u.bcnt != 0 && u.bcnt != 1 {
					return &formatError{"bad byte count for conversion character c"}
				}
				pc.bcnt = 1
			case 'd', 'i', 'o', 'u', 'x', 'X':
				pc.verb = conv
				if conv == 'd' || conv == 'i' {
					pc.kind = fInt
				} else {
					pc.kind = fUint
				}
				switch u.bcnt {
				case 0:
					pc.bcnt = 4
				case 1, 2, 4, 8:
					pc.bcnt = u.bcnt
				default:
					return &formatError{fmt.Sprintf("bad byte count for conversion character %c", conv)}
				}
			case 'e', 'E', 'f', 'g', 'G':
				pc.kind, pc.verb = fDouble, conv
				switch u.bcnt {
				case 0:
					pc.bcnt = 8
				case 4, 8:
					pc.bcnt = u.bcnt
				default:
					return &formatError{fmt.Sprintf("bad byte count for conversion character %c", conv)}
				}
			case 's':
				pc.kind, pc.verb = fString, 's'
				switch {
				case pc.prec >= 0:
					pc.bcnt = pc.prec
				case u.bcnt != 0:
					pc.bcnt = u.bcnt
				default:
					return &formatError{"%s requires a precision or a byte count"}
				}
			case '_':
				if j >= len(f) {
					return &formatError{fmt.Sprintf("bad conversion character %%%s", f[i:j])}
				}
				c2 := f[j]
				j++
				switch c2 {
				case 'A', 'a':
					if j >= len(f) || strings.IndexByte("dox", f[j]) < 0 {
						return &formatError{fmt.Sprintf("bad conversion character %%%s", f[i:min(j+1, len(f))])}
					}
					pc.base = f[j]
					j++
					if c2 == 'A' {
						pc.kind = fEndAddress
						u.ignore = true
					} else {
						pc.kind = fAddress
					}
				case 'c':
					pc.kind, pc.bcnt = fC, 1
				case 'p':
					pc.kind, pc.bcnt = fP, 1
				case 'u':
					pc.kind, pc.bcnt = fU, 1
				default:
					return &formatError{fmt.Sprintf("bad conversion character %%%s", f[i:j])}
				}
			default:
				return &formatError{fmt.Sprintf("bad conversion character %%%s", f[i:j])}
			}
			nconv++
			u.pieces = append(u.pieces, pc)
			f = f[j:]
		}
		if u.bcnt == 0 {
			for _, pc := range u.pieces {
				u.bcnt += pc.bcnt
			}
		}
	}
	g.bcnt = 0
	for _, u := range g.units {
		g.bcnt += u.reps * u.bcnt
	}
	return nil
}

// finish extends the last unit to fill the block and marks the trailing
// whitespace that the last repetition drops.
func (g *group) finish(blocksize int) {
	for i, u := range g.units {
		if i == len(g.units)-1 && g.bcnt < blocksize && !u.setRep && u.bcnt > 0 {
			u.reps += (blocksize - g.bcnt) / u.bcnt
		}
		if u.reps > 1 && len(u.pieces) > 0 {
			last := u.pieces[len(u.pieces)-1]
			t := last.text
			if last.kind != fText {
				t = ""
			}
			if t != "" && isSpace(t[len(t)-1]) {
				last.nospace = true
			}
		}
	}
}

// appendInt formats a number C printf style with the piece's flags,
// width and precision.
func (pc *piece) appendNum(dst []byte, neg bool, mag uint64, verb byte) []byte {
	var digits []byte
	var buf [64]byte
	switch verb {
	case 'o':
		digits = strconv.AppendUint(buf[:0], mag, 8)
	case 'x':
		digits = strconv.AppendUint(buf[:0], mag, 16)
	case 'X':
		digits = []byte(strings.ToUpper(strconv.FormatUint(mag, 16)))
	default:
		digits = strconv.AppendUint(buf[:0], mag, 10)
	}
	if pc.prec == 0 && mag == 0 {
		digits = digits[:0]
	}
	var zeros int
	if pc.prec > len(digits) {
		zeros = pc.prec - len(digits)
	}
	prefix := ""
	switch {
	case neg:
		prefix = "-"
	case strings.Contains(pc.flags, "+") && (verb == 'd' || verb == 'i'):
		prefix = "+"
	case strings.Contains(pc.flags, " ") && (verb == 'd' || verb == 'i'):
		prefix = " "
	}
	if strings.Contains(pc.flags, "#") && mag != 0 {
		switch verb {
		case 'x':
			prefix += "0x"
		case 'X':
			prefix += "0X"
		case 'o':
			if zeros == 0 {
				zeros = 1
			}
		}
	}
	n := len(prefix) + zeros + len(digits)
	left := strings.Contains(pc.flags, "-")
	zeroPad := strings.Contains(pc.flags, "0") && !left && pc.prec < 0
	if !left && !zeroPad {
		for ; n < pc.width; n++ {
			dst = append(dst, ' ')
		}
	}
	dst = append(dst, prefix...)
	if zeroPad {
		for ; n < pc.width; n++ {
			dst = append(dst, '0')
		}
	}
	for ; zeros > 0; zeros-- {
		dst = append(dst, '0')
	}
	dst = append(dst, digits...)
	if left {
		for ; n < pc.width; n++ {
			dst = append(dst, ' ')
		}
	}
	return dst
}

// appendStr formats a string with the piece's width and precision (%s).
func (pc *piece) appendStr(dst []byte, s []byte) []byte {
	if pc.prec >= 0 && len(s) > pc.prec {
		s = s[:pc.prec]
	}
	left := strings.Contains(pc.flags, "-")
	if !left {
		for n := len(s); n < pc.width; n++ {
			dst = append(dst, ' ')
		}
	}
	dst = append(dst, s...)
	if left {
		for n := len(s); n < pc.width; n++ {
			dst = append(dst, ' ')
		}
	}
	return dst
}

// appendChar formats a single byte with the piece's width (%c).
func (pc *piece) appendChar(dst []byte, c byte) []byte {
	left := strings.Contains(pc.flags, "-")
	if !left {
		for n := 1; n < pc.width; n++ {
			dst = append(dst, ' ')
		}
	}
	dst = append(dst, c)
	if left {
		for n := 1; n < pc.width; n++ {
			dst = append(dst, ' ')
		}
	}
	return dst
}

var uNames = [33]string{
	"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel",
	"bs", "ht", "lf", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb",
	"can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp",
}

func isPrint(c byte) bool { return c >= 0x20 && c < 0x7f }

// appendPiece prints one conversion of b (len(b) >= pc.bcnt).
func (pc *piece) appendPiece(dst []byte, b []byte, address int64) []byte {
	dst = append(dst, pc.pre...)
	switch pc.kind {
	case fText:
		return append(dst, pc.text...)
	case fBpad:
		return pc.appendStr(dst, nil)
	case fAddress, fEndAddress:
		verb := pc.base
		if verb == 'd' && address < 0 {
			return pc.appendNum(dst, true, uint64(-address), 'd')
		}
		return pc.appendNum(dst, false, uint64(address), verb)
	case fChar:
		return pc.appendChar(dst, b[0])
	case fC:
		var s string
		switch b[0] {
		case 0:
			s = `\0`
		case '\a':
			s = `\a`
		case '\b':
			s = `\b`
		case '\f':
			s = `\f`
		case '\n':
			s = `\n`
		case '\r':
			s = `\r`
		case '\t':
			s = `\t`
		case '\v':
			s = `\v`
		default:
			if isPrint(b[0]) {
				return pc.appendChar(dst, b[0])
			}
			s = fmt.Sprintf("%03o", b[0])
		}
		return pc.appendStr(dst, []byte(s))
	case fP:
		c := b[0]
		if !isPrint(c) {
			c = '.'
		}
		return pc.appendChar(dst, c)
	case fU:
		c := b[0]
		switch {
		case c <= 0x20:
			return pc.appendStr(dst, []byte(uNames[c]))
		case c == 0x7f:
			return pc.appendStr(dst, []byte("del"))
		case c > 0x7f:
			return pc.appendStr(dst, []byte(fmt.Sprintf("%02x", c)))
		}
		return pc.appendChar(dst, c)
	case fString:
		s := b[:pc.bcnt]
		if i := indexZero(s); i >= 0 {
			s = s[:i]
		}
		return pc.appendStr(dst, s)
	case fDouble:
		var f float64
		if pc.bcnt == 4 {
			f = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		} else {
			f = math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
		prec := pc.prec
		if prec < 0 {
			prec = 6
		}
		s := fmt.Sprintf("%"+pc.flags+strconv.Itoa(pc.width)+"."+strconv.Itoa(prec)+string(pc.verb), f)
		return append(dst, s...)
	}
	var u uint64
	switch pc.bcnt {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		u = binary.LittleEndian.Uint64(b)
	}
	if pc.kind == fInt {
		shift := 64 - 8*uint(pc.bcnt)
		v := int64(u<<shift) >> shift
		if v < 0 {
			return pc.appendNum(dst, true, uint64(-v), 'd')
		}
		return pc.appendNum(dst, false, uint64(v), 'd')
	}
	return pc.appendNum(dst, false, u, pc.verb)
}

func indexZero(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

// bpad turns a conversion into blank padding of its width.
func (pc *piece) bpad() {
	pc.kind = fBpad
	pc.prec = -1
	pc.flags = strings.Map(func(r rune) rune {
		if r == '-' {
			return r
		}
		return -1
	}, pc.flags)
}
