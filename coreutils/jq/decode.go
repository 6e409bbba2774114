package jq

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bashbox/bashbox/internal/printf"
)

// decoder parses a stream of JSON texts the way jq 1.6 does: numbers are
// doubles, invalid UTF-8 becomes U+FFFD, and errors read
// "Invalid numeric literal at line 1, column 4". It records the key order
// of every object it makes (gojq's objects are Go maps, which have none).
type decoder struct {
	data  []byte
	pos   int
	order *keyOrder
	depth int
	// lineEnd and lineCount memoise line(): newlines in data[:lineEnd].
	lineEnd, lineCount int
	// keyNames interns object keys: a stream of records repeats them.
	keyNames map[string]string
	// lastWidth is the key count of the last object, a size hint.
	lastWidth int
	// keyBuf is a key list the order did not keep, for the next object.
	keyBuf []string
	// deferred: the decoder runs ahead of the filter (ahead.go) and must
	// not touch order, which is the filter's; it appends each object's
	// keys to recs instead, for the filter's side to record when it takes
	// the value, and keeps its own last.
	deferred bool
	recs     []orderRec
	last     []string
}

// key reads an object key, reusing the string of an equal earlier key.
func (d *decoder) key() (string, error) {
	start := d.pos + 1
	end := start
	for end < len(d.data) && d.data[end] != '"' && d.data[end] != '\\' {
		end++
	}
	plain := end < len(d.data) && d.data[end] == '"'
	if plain {
		if name, ok := d.keyNames[string(d.data[start:end])]; ok {
			d.pos = end + 1
			return name, nil
		}
	}
	k, err := d.str()
	if err == nil && plain && len(d.keyNames) < 4096 && k == string(d.data[start:end]) {
		if d.keyNames == nil {
			d.keyNames = map[string]string{}
		}
		d.keyNames[k] = k
	}
	return k, err
}

// parseError is a JSON syntax error with jq's wording.
type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

func (d *decoder) errorf(format string, args ...any) error {
	line, col := 1, 0
	for _, b := range d.data[:min(d.pos, len(d.data))] {
		if b == '\n' {
			line++
			col = 0
		} else {
			col++
		}
	}
	return &parseError{fmt.Sprintf(format, args...) + fmt.Sprintf(" at line %d, column %d", line, col)}
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// more reports whether another value follows.
func (d *decoder) more() bool {
	d.skipSpace()
	return d.pos < len(d.data)
}

// lineAt is jq's "(at <stdin>:N)" line for a value that ended at pos: the
// newlines up to the end of that line.
func (d *decoder) lineAt(pos int) int {
	end := pos
	if i := bytes.IndexByte(d.data[end:], '\n'); i >= 0 {
		end += i + 1
	} else {
		end = len(d.data)
	}
	// Values come in order, so count only what was not counted yet.
	if end < d.lineEnd {
		d.lineEnd, d.lineCount = 0, 0
	}
	d.lineCount += bytes.Count(d.data[d.lineEnd:end], []byte{'\n'})
	d.lineEnd = end
	return d.lineCount
}

// next parses one JSON text.
func (d *decoder) next() (any, error) {
	d.skipSpace()
	v, err := d.value()
	if err != nil {
		return nil, err
	}
	return v, nil
}

func isDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '[', ']', '{', '}', ',', ':', '"':
		return true
	}
	return false
}

func (d *decoder) value() (any, error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return nil, d.errorf("Unfinished JSON term at EOF")
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		return d.str()
	case ']', '}':
		d.pos++
		return nil, d.errorf("Unmatched '%c'", c)
	case ',', ':':
		d.pos++
		return nil, d.errorf("Expected value before '%c'", c)
	}
	start := d.pos
	for d.pos < len(d.data) && !isDelim(d.data[d.pos]) {
		d.pos++
	}
	if f, ok := smallInt(d.data[start:d.pos]); ok {
		return f, nil
	}
	word := string(d.data[start:d.pos])
	switch word {
	case "null":
		return nil, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	if f, ok := parseNumber(word); ok {
		return f, nil
	}
	msg := "Invalid numeric literal"
	if c := word[0]; c == 't' || c == 'f' || c == 'n' {
		msg = "Invalid literal"
	}
	if d.pos < len(d.data) {
		d.pos++
		return nil, d.errorf("%s", msg)
	}
	return nil, d.errorf("%s at EOF", msg)
}

// smallInt parses the common number, an integer of up to 15 digits
// (exact as a double), without the string parseNumber needs.
func smallInt(b []byte) (float64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 15 || len(b) > 1 && b[0] == '0' {
		return 0, false
	}
	n := int64(0)
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	f := float64(n)
	if neg {
		f = -f
	}
	return f, true
}

// parseNumber parses a JSON number as jq does: out-of-range values clamp
// to the largest double.
func parseNumber(s string) (float64, bool) {
	if s == "" || strings.ContainsAny(s, "xXpP_") || strings.EqualFold(strings.TrimLeft(s, "+-"), "inf") ||
		strings.EqualFold(strings.TrimLeft(s, "+-"), "infinity") || strings.EqualFold(s, "nan") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			if math.IsInf(f, 1) {
				return math.MaxFloat64, true
			}
			if math.IsInf(f, -1) {
				return -math.MaxFloat64, true
			}
			return f, true
		}
		return 0, false
	}
	return f, true
}

func (d *decoder) array() (any, error) {
	d.pos++
	d.depth++
	if d.depth > 10000 {
		return nil, d.errorf("Exceeds depth limit for parsing")
	}
	arr := []any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.depth--
		return arr, nil
	}
	for {
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		done, err := d.separator(']', "array element")
		if err != nil {
			return nil, err
		}
		if done {
			return arr, nil
		}
	}
}

// separator reads what follows an array element or an object member: a
// comma and more to come, or the closing bracket (done).
func (d *decoder) separator(closing byte, another string) (done bool, err error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return false, d.errorf("Unfinished JSON term at EOF")
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == closing {
			d.pos++
			return false, d.errorf("Expected another %s", another)
		}
		return false, nil
	case closing:
		d.pos++
		d.depth--
		return true, nil
	}
	return false, d.adjacent()
}

// adjacent reports a value that follows another without a separator,
// where jq notices it: once the second token is complete.
func (d *decoder) adjacent() error {
	switch c := d.data[d.pos]; {
	case c == '"':
		if _, err := d.str(); err != nil {
			return err
		}
	case c == '[' || c == '{':
		d.pos++
	case c == ':':
		d.pos++
		return d.errorf("':' not as part of an object")
	case !isDelim(c):
		for d.pos < len(d.data) && !isDelim(d.data[d.pos]) {
			d.pos++
		}
		if d.pos >= len(d.data) {
			return d.errorf("Expected separator between values at EOF")
		}
		d.pos++
	default:
		d.pos++
	}
	return d.errorf("Expected separator between values")
}

func (d *decoder) object() (any, error) {
	d.pos++
	d.depth++
	if d.depth > 10000 {
		return nil, d.errorf("Exceeds depth limit for parsing")
	}
	obj := make(map[string]any, d.lastWidth)
	keys := d.keyBuf[:0]
	d.keyBuf = nil
	if keys == nil {
		keys = make([]string, 0, d.lastWidth)
	}
	last := d.last // nested objects change it
	if !d.deferred {
		last = d.order.last
	}
	prefix := true
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.depth--
		d.keyBuf = keys
		return obj, nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf("Unfinished JSON term at EOF")
		}
		if d.data[d.pos] != '"' {
			if d.data[d.pos] == '}' || d.data[d.pos] == ',' {
				d.pos++
				return nil, d.errorf("Objects must consist of key:value pairs")
			}
			if _, err := d.value(); err != nil {
				return nil, err
			}
			d.pos++
			return nil, d.errorf("Object keys must be strings")
		}
		key, err := d.key()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf("Unfinished JSON term at EOF")
		}
		if d.data[d.pos] != ':' {
			if c := d.data[d.pos]; c == ',' || c == '}' {
				d.pos++
				return nil, d.errorf("Objects must consist of key:value pairs")
			}
			return nil, d.adjacent()
		}
		d.pos++
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		// While the keys follow the distinct keys of the object before
		// this one, a key cannot repeat an earlier one.
		if prefix && len(keys) < len(last) && last[len(keys)] == key {
			keys = append(keys, key)
		} else if _, dup := obj[key]; !dup {
			prefix = false
			keys = append(keys, key)
		}
		obj[key] = v
		done, err := d.separator('}', "key-value pair")
		if err != nil {
			return nil, err
		}
		if done {
			d.lastWidth = len(keys)
			if d.deferred {
				d.deferRecord(obj, keys)
			} else if !d.order.record(obj, keys) {
				d.keyBuf = keys
			}
			return obj, nil
		}
	}
}

func (d *decoder) str() (string, error) {
	d.pos++
	start := d.pos
	// Fast path: no escapes, valid UTF-8.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			if utf8.Valid(s) {
				return string(s), nil
			}
			return strings.ToValidUTF8(string(s), "\uFFFD"), nil
		}
		if c == '\\' {
			break
		}
		d.pos++
	}
	var b strings.Builder
	b.Write(d.data[start:d.pos])
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			s := b.String()
			if !utf8.ValidString(s) {
				s = strings.ToValidUTF8(s, "\uFFFD")
			}
			return s, nil
		case c == '\\' && d.pos+1 >= len(d.data):
			d.pos = len(d.data)
			return "", d.errorf("Unfinished string at EOF")
		case c == '\\':
			d.pos++
			if d.pos >= len(d.data) {
				return "", d.errorf("Unfinished JSON term at EOF")
			}
			e := d.data[d.pos]
			d.pos++
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b', 'f', 'n', 'r', 't': // JSON's C escapes
				l, _ := printf.Letter(e)
				b.WriteByte(l)
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return "", d.errorf("Invalid escape")
				}
				if utf16.IsSurrogate(r) {
					if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
						save := d.pos
						d.pos += 2
						r2, ok := d.hex4()
						if ok && r2 >= 0xDC00 && r2 <= 0xDFFF && r < 0xDC00 {
							r = utf16.DecodeRune(r, r2)
						} else {
							d.pos = save
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				b.WriteRune(r)
			default:
				return "", d.errorf("Invalid escape")
			}
		default:
			b.WriteByte(c)
			d.pos++
		}
	}
	return "", d.errorf("Unfinished string at EOF")
}

func (d *decoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.pos += 4
	return rune(n), true
}
