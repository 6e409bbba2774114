package sed

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/internal/posixre"
)

// regex is a compiled regular expression with a substring-search fast path
// for plain literal patterns.
type regex struct {
	re    *posixre.Regexp
	lit   []byte
	isLit bool
	nsub  int
	// split: search each sep-separated part of the subject on its own
	// (the M flag with -z).
	split bool
	sep   byte
}

func newRegex(re *posixre.Regexp) *regex {
	r := &regex{re: re, nsub: re.NumSubexp()}
	if s, ok := re.Literal(); ok && s != "" {
		r.lit, r.isLit = []byte(s), true
	}
	return r
}

func (r *regex) match(b []byte) bool {
	if r.split {
		return r.findAll(b, 1) != nil
	}
	if r.isLit {
		return bytes.Contains(b, r.lit)
	}
	return r.re.Match(b)
}

// find returns the leftmost match with its subexpressions, or nil.
func (r *regex) find(b []byte, buf []int) []int {
	if r.split {
		if ms := r.findAll(b, 1); ms != nil {
			return ms[0]
		}
		return nil
	}
	if r.isLit {
		i := bytes.Index(b, r.lit)
		if i < 0 {
			return nil
		}
		return append(buf[:0], i, i+len(r.lit))
	}
	return r.re.FindSubmatchIndex(b)
}

// findAll returns up to n (all when n < 0) successive matches; an empty
// match right after the previous match is skipped, as GNU sed does.
func (r *regex) findAll(b []byte, n int) [][]int {
	if r.split {
		var out [][]int
		for start := 0; n < 0 || len(out) < n; {
			end := bytes.IndexByte(b[start:], r.sep)
			if end < 0 {
				end = len(b)
			} else {
				end += start
			}
			for _, m := range r.re.FindAllSubmatchIndex(b[start:end], n-len(out)) {
				for i := range m {
					if m[i] >= 0 {
						m[i] += start
					}
				}
				out = append(out, m)
			}
			if end == len(b) {
				break
			}
			start = end + 1
		}
		return out
	}
	if r.isLit {
		var out [][]int
		for pos := 0; n < 0 || len(out) < n; {
			i := bytes.Index(b[pos:], r.lit)
			if i < 0 {
				break
			}
			out = append(out, []int{pos + i, pos + i + len(r.lit)})
			pos += i + len(r.lit)
		}
		return out
	}
	return r.re.FindAllSubmatchIndex(b, n)
}

type caseMode uint8

const (
	caseAsIs  caseMode = 0
	caseUpper caseMode = 1
	caseLower caseMode = 2
	// one-shot modifiers for the first character
	caseUpperFirst caseMode = 4
	caseLowerFirst caseMode = 8
	caseFirstMask           = caseUpperFirst | caseLowerFirst
)

// replPiece is literal text followed by a group reference (ref < 0: none),
// with the case conversion in force.
type replPiece struct {
	prefix []byte
	ref    int
	mode   caseMode
}

type subst struct {
	re     *regex // nil: the last regex used
	pieces []replPiece
	maxRef int
	// plain is set when the replacement is only literal text.
	plain  bool
	global bool
	print  bool
	eval   bool
	numb   int
	out    *output
}

// setupReplacement splits the replacement into pieces, as GNU's
// setup_replacement does. text has had its escapes normalized.
func (s *subst) setupReplacement(text []byte) {
	var cur caseMode
	var lit []byte
	s.maxRef = 0
	add := func(ref int) {
		s.pieces = append(s.pieces, replPiece{prefix: lit, ref: ref, mode: cur})
		lit = nil
		cur &^= caseFirstMask
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text):
			i++
			d := text[i]
			switch {
			case d >= '0' && d <= '9':
				ref := int(d - '0')
				if ref > s.maxRef {
					s.maxRef = ref
				}
				add(ref)
			case d == 'L':
				add(-1)
				cur = caseLower
			case d == 'U':
				add(-1)
				cur = caseUpper
			case d == 'E':
				add(-1)
				cur = caseAsIs
			case d == 'l':
				add(-1)
				cur = cur&^caseFirstMask | caseLowerFirst
			case d == 'u':
				add(-1)
				cur = cur&^caseFirstMask | caseUpperFirst
			default:
				lit = append(lit, d)
			}
		case c == '&':
			add(0)
		default:
			lit = append(lit, c)
		}
	}
	if len(lit) > 0 {
		add(-1)
	}
	s.plain = true
	for _, p := range s.pieces {
		if p.ref >= 0 || p.mode != caseAsIs {
			s.plain = false
		}
	}
}

// appendReplacement appends the replacement for match m of line.
func (s *subst) appendReplacement(dst, line []byte, m []int) []byte {
	var carry caseMode
	for _, p := range s.pieces {
		mode := p.mode
		if mode&caseFirstMask == 0 {
			mode |= carry
		}
		carry = 0
		if len(p.prefix) > 0 {
			dst = appendCase(dst, p.prefix, mode)
			mode &^= caseFirstMask
		}
		if p.ref >= 0 {
			st, en := -1, -1
			if 2*p.ref+1 < len(m) {
				st, en = m[2*p.ref], m[2*p.ref+1]
			}
			if st < 0 || st == en {
				if p.mode&caseFirstMask != 0 {
					carry = mode & caseFirstMask
				}
				continue
			}
			dst = appendCase(dst, line[st:en], mode)
		}
	}
	return dst
}

// appendCase appends s converted by mode, as GNU's str_append_modified.
func appendCase(dst, s []byte, mode caseMode) []byte {
	if mode == caseAsIs {
		return append(dst, s...)
	}
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if r == utf8.RuneError && n <= 1 {
			mode &^= caseFirstMask
			if mode == caseAsIs {
				return append(dst, s...)
			}
			dst = append(dst, s[0])
			s = s[1:]
			continue
		}
		if r == 0 {
			return append(dst, s...)
		}
		s = s[n:]
		if mode&caseFirstMask != 0 {
			if mode&caseUpperFirst != 0 {
				r = unicode.ToUpper(r)
			} else {
				r = unicode.ToLower(r)
			}
			mode &^= caseFirstMask
			dst = utf8.AppendRune(dst, r)
			if mode == caseAsIs {
				return append(dst, s...)
			}
			continue
		}
		if mode&caseUpper != 0 {
			r = unicode.ToUpper(r)
		} else {
			r = unicode.ToLower(r)
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}
