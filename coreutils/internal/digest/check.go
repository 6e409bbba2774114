package digest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// checkLine is one parsed line of a checksum file.
type checkLine struct {
	digest string // hexadecimal, or base64 for cksum
	name   string
}

// b64Len is the length of the base64 encoding of n bytes, padding included.
func b64Len(n int) int { return (n + 2) / 3 * 4 }

// validDigits reports whether d is the digest of the current length in
// hexadecimal or, for cksum (GNU 9.2), base64 with its padding.
func (r *run) validDigits(d string) bool {
	n := r.bits / 8
	if r.cksum && len(d) == b64Len(n) && len(d) != n*2 {
		pad := (3 - n%3) % 3
		for i := 0; i < len(d); i++ {
			c := d[i]
			if i >= len(d)-pad {
				if c != '=' {
					return false
				}
			} else if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
				return false
			}
		}
		return true
	}
	return hexDigits(d, n*2)
}

// matches reports whether a digest field of a check line is sum: base64
// compares exactly, hexadecimal in either case.
func (r *run) matches(field string, sum []byte) bool {
	if len(field) < len(sum)*2 {
		return base64.StdEncoding.EncodeToString(sum) == field
	}
	return strings.EqualFold(hex.EncodeToString(sum), field)
}

func isWhite(c byte) bool { return c == ' ' || c == '\t' }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// hexDigits reports whether s is exactly n hexadecimal digits.
func hexDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// unescapeName undoes the escaping of names holding \, newline or CR.
func unescapeName(s string) (string, bool) {
	if !strings.ContainsAny(s, "\\\x00") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i == len(s)-1 {
				return "", false
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case '\\':
				b.WriteByte('\\')
			default:
				return "", false
			}
		case 0:
			return "", false
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), true
}

// algoFromTag finds the algorithm a tagged line starts with (cksum
// without -a).
func algoFromTag(s string) (Algo, bool) {
	i := 0
	for i < len(s) && i <= 7 && s[i] != 0 && !isWhite(s[i]) && s[i] != '-' && s[i] != '(' {
		i++
	}
	for a, in := range info {
		if in.tag == s[:i] {
			return Algo(a), true
		}
	}
	return 0, false
}

// parseLengthSuffix reads the BITS of "BLAKE2b-BITS" as strtoumax with
// base 0 does; it returns the value and the rest.
func parseLengthSuffix(s string) (uint64, string, bool) {
	r := textio.ScanUint(s, 0, "")
	if r.Invalid || r.Overflow {
		return 0, "", false
	}
	return r.Value, r.Rest, true
}

// split3 parses a checksum line: "HEX  NAME", "HEX *NAME", the BSD
// reversed "HEX NAME", or the tagged "ALG (NAME) = HEX", each optionally
// preceded by a backslash for an escaped name. It sets the line's
// algorithm and digest length.
func (r *run) split3(s string) (checkLine, bool) {
	var cl checkLine
	i := 0
	for i < len(s) && isWhite(s[i]) {
		i++
	}
	escaped := false
	if i < len(s) && s[i] == '\\' {
		i++
		escaped = true
	}
	variable := r.cksum || r.algo == BLAKE2B
	if r.cksum && !r.algoGiven {
		a, ok := algoFromTag(s[i:])
		if !ok || a <= CRC32B {
			return cl, false
		}
		r.algo = a
	}
	if variable {
		r.bits = info[r.algo].bits
	}
	tag := info[r.algo].tag
	if strings.HasPrefix(s[i:], tag) {
		i += len(tag)
		if variable {
			lengthGiven := i < len(s) && s[i] == '-'
			if i >= len(s) || s[i] != '(' {
				i++
			}
			if lengthGiven {
				n, rest, ok := parseLengthSuffix(s[min(i, len(s)):])
				if !ok || n == 0 || n > uint64(r.bits) || n%8 != 0 {
					return cl, false
				}
				i = len(s) - len(rest)
				r.bits = int(n)
			}
		}
		if i < len(s) && s[i] == ' ' {
			i++
		}
		if i < len(s) && s[i] == '(' {
			return r.bsdSplit3(s[i+1:], escaped)
		}
		return cl, false
	}
	minLen := 3
	if !variable {
		minLen = info[r.algo].bits/4 + 2
	}
	extra := 0
	if i < len(s) && s[i] == '\\' {
		extra = 1
	}
	if len(s)-i < minLen+extra {
		return cl, false
	}
	if r.algo == BLAKE2B {
		n := 0
		for i+n < len(s) && isHex(s[i+n]) {
			n++
		}
		if n < 2 || n%2 != 0 || n > 128 {
			return cl, false
		}
		r.bits = n * 4
	}
	// The digest runs to the first blank, which must exist.
	end := i
	for end < len(s) && !isWhite(s[end]) {
		end++
	}
	if end == len(s) || !r.validDigits(s[i:end]) {
		return cl, false
	}
	cl.digest = s[i:end]
	i = end + 1
	if len(s)-i == 1 || i >= len(s) || s[i] != ' ' && s[i] != '*' {
		if r.bsdReversed == 0 {
			return cl, false
		}
		r.bsdReversed = 1
	} else if r.bsdReversed != 1 {
		r.bsdReversed = 0
		i++
	}
	cl.name = s[i:]
	if escaped {
		name, ok := unescapeName(cl.name)
		cl.name = name
		return cl, ok
	}
	return cl, true
}

func (r *run) bsdSplit3(s string, escaped bool) (checkLine, bool) {
	var cl checkLine
	if s == "" {
		return cl, false
	}
	i := len(s) - 1
	for i > 0 && s[i] != ')' {
		i--
	}
	if s[i] != ')' {
		return cl, false
	}
	cl.name = s[:i]
	if escaped {
		name, ok := unescapeName(cl.name)
		if !ok {
			return cl, false
		}
		cl.name = name
	}
	i++
	for i < len(s) && isWhite(s[i]) {
		i++
	}
	if i >= len(s) || s[i] != '=' {
		return cl, false
	}
	i++
	for i < len(s) && isWhite(s[i]) {
		i++
	}
	if !r.validDigits(s[i:]) {
		return cl, false
	}
	cl.digest = s[i:]
	return cl, true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf(one, n)
	}
	return fmt.Sprintf(many, n)
}

// checkFile verifies the checksums listed in one file.
func (r *run) checkFile(name string) bool {
	display := name
	in, closeIn, err := r.open(name)
	if name == "-" {
		display = "standard input"
	}
	if err == errIsDir {
		r.c.Errorf("%s: read error", r.qf(display))
		return false
	}
	if err != nil {
		r.c.Errorf("%s: %s", r.qf(display), err2text(err))
		return false
	}
	defer closeIn()
	algo, bits := r.algo, r.bits
	defer func() { r.algo, r.bits = algo, bits }()

	br := bufio.NewReaderSize(in, bufSize)
	var misformatted, readFailures, mismatched int
	properlyFormatted, matched := false, false
	lineNo := 0
	for {
		if r.ctx.Err() != nil {
			return false
		}
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			full := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				full = append(full, line...)
			}
			line = full
		}
		if err != nil && err != io.EOF {
			r.c.Errorf("%s: read error", r.qf(display))
			return false
		}
		if len(line) == 0 {
			break
		}
		lineNo++
		if line[0] == '#' {
			continue
		}
		s := line
		if s[len(s)-1] == '\n' {
			s = s[:len(s)-1]
		}
		if len(s) > 0 && s[len(s)-1] == '\r' {
			s = s[:len(s)-1]
		}
		if len(s) == 0 {
			continue
		}
		if k := bytes.IndexByte(s, 0); k >= 0 {
			s = s[:k]
		}
		r.algo, r.bits = algo, bits
		cl, ok := r.split3(string(s))
		if !ok || name == "-" && cl.name == "-" {
			misformatted++
			if r.warn {
				r.c.Errorf("%s: %d: improperly formatted %s checksum line", r.qf(display), lineNo, info[r.algo].tag)
			}
			continue
		}
		properlyFormatted = true
		// GNU 9.1 escapes names in check reports only for newlines.
		escape := !r.status && strings.Contains(cl.name, "\n")
		sum, missing, ok := r.digest(cl.name)
		switch {
		case !ok:
			readFailures++
			if !r.status {
				if escape {
					r.out.WriteByte('\\')
				}
				r.writeName(cl.name, escape)
				r.out.WriteString(": FAILED open or read\n")
			}
		case missing:
		default:
			good := r.matches(cl.digest, sum)
			if good {
				matched = true
			} else {
				mismatched++
			}
			if !r.status {
				if !good || !r.quiet {
					if escape {
						r.out.WriteByte('\\')
					}
					r.writeName(cl.name, escape)
				}
				if !good {
					r.out.WriteString(": FAILED\n")
				} else if !r.quiet {
					r.out.WriteString(": OK\n")
				}
			}
		}
		if err == io.EOF {
			break
		}
	}
	if !properlyFormatted {
		r.c.Errorf("%s: no properly formatted checksum lines found", r.qf(display))
	} else if !r.status {
		if misformatted > 0 {
			r.c.Errorf("%s", plural(misformatted, "WARNING: %d line is improperly formatted", "WARNING: %d lines are improperly formatted"))
		}
		if readFailures > 0 {
			r.c.Errorf("%s", plural(readFailures, "WARNING: %d listed file could not be read", "WARNING: %d listed files could not be read"))
		}
		if mismatched > 0 {
			r.c.Errorf("%s", plural(mismatched, "WARNING: %d computed checksum did NOT match", "WARNING: %d computed checksums did NOT match"))
		}
		if r.igMis && !matched {
			r.c.Errorf("%s: no file was verified", r.qf(display))
		}
	}
	return properlyFormatted && mismatched == 0 && readFailures == 0 &&
		(!r.strict || misformatted == 0) && (!r.igMis || matched)
}
