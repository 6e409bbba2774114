package interp

import (
	"sort"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// slice implements ${x:offset:length}, on strings by character and on
// lists by element.
func (f *frame) slice(v pval, sl *syntax.Slice, name string) (pval, bool) {
	off, ok := f.arithNamed(sl.Offset, name)
	if !ok {
		return v, false
	}
	var length int64 = -1
	hasLen := sl.Length != nil
	if hasLen {
		if length, ok = f.arithNamed(sl.Length, name); !ok {
			return v, false
		}
	}
	if v.isList {
		list := v.list
		if name == "@" || name == "*" {
			list = append([]string{f.arg0}, f.params...)
		} else if vr := f.lookupVar(name); vr != nil && vr.idx != nil && len(vr.idx.keys) > 0 {
			return f.sliceSparse(v, vr.idx.keys, off, length, hasLen, sl)
		}
		n := int64(len(list))
		if v.assoc && off > 0 {
			off-- // bash counts an associative array's elements from 1 (0 is 1)
		}
		if off < 0 {
			off += n
			if off < 0 {
				return pval{isList: true, set: true, star: v.star}, true
			}
		}
		if off > n {
			off = n
		}
		end := n
		if hasLen {
			if length < 0 {
				f.errorf("%s: substring expression < 0", arithText(sl.Length))
				f.abort()
				return v, false
			}
			end = min(off+length, n)
		}
		return pval{list: list[off:end], isList: true, set: true, star: v.star}, true
	}
	if !f.multibyte(v.s) {
		// ASCII, or bytes in the C locale: no decoding
		start, end, ok := f.substring(int64(len(v.s)), off, length, hasLen, sl)
		if !ok {
			return v, false
		}
		return pval{s: v.s[start:end], set: v.set}, true
	}
	// by character; an invalid byte counts as one and is kept as it is
	start, end, ok := f.substring(int64(utf8.RuneCountInString(v.s)), off, length, hasLen, sl)
	if !ok {
		return v, false
	}
	from, to, n := len(v.s), len(v.s), int64(0)
	for i := range v.s {
		if n == start {
			from = i
		}
		if n == end {
			to = i
			break
		}
		n++
	}
	return pval{s: v.s[from:to], set: v.set}, true
}

// substring resolves ${x:off:len} over n characters.
func (f *frame) substring(n, off, length int64, hasLen bool, sl *syntax.Slice) (int64, int64, bool) {
	if off < 0 {
		off += n
		if off < 0 {
			return 0, 0, true
		}
	}
	if off > n {
		return 0, 0, true
	}
	end := n
	if hasLen {
		if length < 0 {
			end = n + length
			if end < off {
				f.errorf("%s: substring expression < 0", arithText(sl.Length))
				f.abort()
				return 0, 0, false
			}
		} else {
			end = min(off+length, n)
		}
	}
	return off, end, true
}

// multibyte says whether s must be read as characters rather than bytes:
// it holds non-ASCII bytes and the locale (LC_ALL, LC_CTYPE, LANG) is a
// UTF-8 one.
func (f *frame) multibyte(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return false
	}
	for _, name := range [...]string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v, _ := f.getVar(name); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// sliceSparse is ${a[@]:off:len} on an indexed array: the offset is an
// index (negative counts back from the highest index plus one) and the
// length a count of the elements set from there.
func (f *frame) sliceSparse(v pval, keys []int64, off, length int64, hasLen bool, sl *syntax.Slice) (pval, bool) {
	if off < 0 {
		off += keys[len(keys)-1] + 1
		if off < 0 {
			return pval{isList: true, set: true, star: v.star}, true
		}
	}
	if hasLen && length < 0 {
		f.errorf("%s: substring expression < 0", arithText(sl.Length))
		f.abort()
		return v, false
	}
	start := sort.Search(len(keys), func(i int) bool { return keys[i] >= off })
	end := len(v.list)
	if hasLen {
		end = int(min(int64(end), int64(start)+length))
	}
	return pval{list: v.list[start:end], isList: true, set: true, star: v.star}, true
}
