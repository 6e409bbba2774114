package jq

import (
	"bufio"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// encoder prints values as jq 1.6 does.
type encoder struct {
	w      *bufio.Writer
	indent int // 0: compact
	tab    bool
	sort   bool
	ascii  bool
	color  bool
	order  *keyOrder
}

// jq 1.6's default colours.
const (
	colNull   = "1;30"
	colFalse  = "0;39"
	colTrue   = "0;39"
	colNumber = "0;39"
	colString = "0;32"
	colArray  = "1;39"
	colObject = "1;39"
	colField  = "34;1"
	esc       = "\x1b["
	colReset  = "\x1b[0m"
)

func (e *encoder) encode(v any) {
	e.value(v, 0)
}

func (e *encoder) start(col string) string {
	if !e.color {
		return ""
	}
	s := esc + col + "m"
	e.w.WriteString(s)
	return s
}

func (e *encoder) newline(level int) {
	e.w.WriteByte('\n')
	if e.tab {
		for i := 0; i < level; i++ {
			e.w.WriteByte('\t')
		}
		return
	}
	for i := 0; i < level*e.indent; i++ {
		e.w.WriteByte(' ')
	}
}

// member starts the i-th element or member of a container at level.
func (e *encoder) member(i, level int) {
	if i > 0 {
		e.w.WriteByte(',')
	}
	if e.indent > 0 {
		e.newline(level + 1)
	}
}

// closing ends a non-empty container at level.
func (e *encoder) closing(bracket byte, color string, level int) {
	if e.indent > 0 {
		e.newline(level)
	}
	e.w.WriteString(color)
	e.w.WriteByte(bracket)
}

func (e *encoder) value(v any, level int) {
	var color string
	switch x := v.(type) {
	case nil:
		e.start(colNull)
		e.w.WriteString("null")
	case bool:
		if x {
			e.start(colTrue)
			e.w.WriteString("true")
		} else {
			e.start(colFalse)
			e.w.WriteString("false")
		}
	case int, float64, *big.Int:
		e.start(colNumber)
		e.w.WriteString(formatNumber(toFloat(x)))
	case string:
		e.start(colString)
		e.string(x)
	case []any:
		color = e.start(colArray)
		if len(x) == 0 {
			e.w.WriteString("[]")
			break
		}
		e.w.WriteByte('[')
		for i, el := range x {
			e.member(i, level)
			e.value(el, level+1)
			e.w.WriteString(color)
		}
		e.closing(']', color, level)
	case map[string]any:
		color = e.start(colObject)
		if len(x) == 0 {
			e.w.WriteString("{}")
			break
		}
		e.w.WriteByte('{')
		for i, k := range e.order.keys(x, e.sort) {
			e.member(i, level)
			if e.color {
				e.w.WriteString(colReset)
				e.w.WriteString(esc + colField + "m")
			}
			e.string(k)
			if e.color {
				e.w.WriteString(colReset)
			}
			e.w.WriteString(color)
			e.w.WriteByte(':')
			if e.indent > 0 {
				e.w.WriteByte(' ')
			}
			if e.color {
				e.w.WriteString(colReset)
			}
			e.value(x[k], level+1)
			e.w.WriteString(color)
		}
		e.closing('}', color, level)
	default:
		e.w.WriteString("null")
	}
	if e.color {
		e.w.WriteString(colReset)
	}
}

const hexDigits = "0123456789abcdef"

// string writes s as a JSON string literal the way jq does: control
// characters and DEL as \u00XX, and with -a everything beyond ASCII as
// \uXXXX (surrogate pairs above the BMP).
func (e *encoder) string(s string) {
	w := e.w
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f {
				i++
				continue
			}
			w.WriteString(s[start:i])
			switch c {
			case '"':
				w.WriteString(`\"`)
			case '\\':
				w.WriteString(`\\`)
			case '\n':
				w.WriteString(`\n`)
			case '\t':
				w.WriteString(`\t`)
			case '\r':
				w.WriteString(`\r`)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hexDigits[c>>4])
				w.WriteByte(hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.WriteString(s[start:i])
			if e.ascii {
				w.WriteString(`\ufffd`)
			} else {
				w.WriteString("\uFFFD")
			}
			i++
			start = i
			continue
		}
		if e.ascii {
			w.WriteString(s[start:i])
			if r > 0xFFFF {
				r -= 0x10000
				writeU(w, 0xD800+(r>>10))
				writeU(w, 0xDC00+(r&0x3FF))
			} else {
				writeU(w, r)
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

func writeU(w *bufio.Writer, r rune) {
	w.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		w.WriteByte(hexDigits[(r>>shift)&0xf])
	}
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return f
	}
	return 0
}

// formatNumber prints a double as jq 1.6 does: the shortest digits that
// read back the same, in fixed notation unless the exponent is below -4
// or beyond the digits by more than 15 places; NaN is null and
// infinities are the largest double.
func formatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "null"
	case math.IsInf(f, 1):
		f = math.MaxFloat64
	case math.IsInf(f, -1):
		f = -math.MaxFloat64
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	// Shortest round-trip digits and the decimal exponent.
	es := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
	mant, expStr, _ := strings.Cut(es, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	decpt := exp + 1
	var b strings.Builder
	if f < 0 {
		b.WriteByte('-')
	}
	nd := len(digits)
	if decpt <= -4 || decpt > nd+15 {
		b.WriteByte(digits[0])
		if nd > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		e := decpt - 1
		if e < 0 {
			b.WriteByte('-')
			e = -e
		} else {
			b.WriteByte('+')
		}
		if e < 10 {
			b.WriteByte('0')
		}
		b.WriteString(strconv.Itoa(e))
		return b.String()
	}
	switch {
	case decpt <= 0:
		b.WriteString("0.")
		for i := 0; i < -decpt; i++ {
			b.WriteByte('0')
		}
		b.WriteString(digits)
	case decpt >= nd:
		b.WriteString(digits)
		for i := nd; i < decpt; i++ {
			b.WriteByte('0')
		}
	default:
		b.WriteString(digits[:decpt])
		b.WriteByte('.')
		b.WriteString(digits[decpt:])
	}
	return b.String()
}
