// Package fieldlist parses the LIST argument of cut -b/-c/-f and numfmt
// --field ("1,3-5,7-"). GNU parses both with one function, set_fields, so
// the two commands accept and reject the same lists with the same words;
// one parser here keeps them that way.
package fieldlist

import (
	"math"
	"sort"
)

// Range is the fields Lo to Hi, counted from 1; Hi is math.MaxUint64 for
// an open end ("7-").
type Range struct{ Lo, Hi uint64 }

// Parse reads s as set_fields does: numbers and ranges separated by
// commas or blanks, returned sorted and merged, and complemented when
// complement is set. positions selects the byte/character wording of the
// messages (cut -b and -c) over the field wording. On a fault it returns
// GNU's message, with the offending text passed through quote.
func Parse(s string, positions, complement bool, quote func(string) string) ([]Range, string) {
	numbered := "fields are numbered from 1"
	if positions {
		numbered = "byte/character positions are numbered from 1"
	}
	var rs []Range
	var initial uint64 = 1
	var value uint64
	lhs, rhs, dash := false, false, false
	inDigits := false
	numStart := 0
	for i := 0; ; i++ {
		ch := byte(0)
		if i < len(s) {
			ch = s[i]
		}
		switch {
		case ch == '-' && i < len(s):
			inDigits = false
			if dash {
				if positions {
					return nil, "invalid byte or character range"
				}
				return nil, "invalid field range"
			}
			dash = true
			if lhs && value == 0 {
				return nil, numbered
			}
			initial = 1
			if lhs {
				initial = value
			}
			value = 0
		case i >= len(s) || ch == ',' || ch == ' ' || ch == '\t':
			inDigits = false
			if dash {
				dash = false
				if !lhs && !rhs {
					return nil, "invalid range with no endpoint: -"
				}
				if !rhs {
					rs = append(rs, Range{initial, math.MaxUint64})
				} else {
					if value < initial {
						return nil, "invalid decreasing range"
					}
					rs = append(rs, Range{initial, value})
				}
				value = 0
			} else {
				if value == 0 {
					return nil, numbered
				}
				rs = append(rs, Range{value, value})
				value = 0
			}
			if i >= len(s) {
				return finish(rs, positions, complement)
			}
			lhs, rhs = false, false
		case ch >= '0' && ch <= '9':
			if !inDigits {
				numStart = i
			}
			inDigits = true
			if dash {
				rhs = true
			} else {
				lhs = true
			}
			d := uint64(ch - '0')
			if value > (math.MaxUint64-d)/10 || value*10+d == math.MaxUint64 {
				j := numStart
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				if positions {
					return nil, "byte/character offset " + quote(s[numStart:j]) + " is too large"
				}
				return nil, "field number " + quote(s[numStart:j]) + " is too large"
			}
			value = value*10 + d
		default:
			if positions {
				return nil, "invalid byte/character position " + quote(s[i:])
			}
			return nil, "invalid field value " + quote(s[i:])
		}
	}
}

// finish sorts and merges the ranges and complements them when asked.
func finish(rs []Range, positions, complement bool) ([]Range, string) {
	if len(rs) == 0 {
		if positions {
			return nil, "missing list of byte/character positions"
		}
		return nil, "missing list of fields"
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Lo < rs[j].Lo })
	merged := rs[:1]
	for _, r := range rs[1:] {
		last := &merged[len(merged)-1]
		if r.Lo <= last.Hi {
			if r.Hi > last.Hi {
				last.Hi = r.Hi
			}
			continue
		}
		merged = append(merged, r)
	}
	if !complement {
		return merged, ""
	}
	var cr []Range
	if merged[0].Lo > 1 {
		cr = append(cr, Range{1, merged[0].Lo - 1})
	}
	for i := 1; i < len(merged); i++ {
		if merged[i-1].Hi+1 == merged[i].Lo {
			continue
		}
		cr = append(cr, Range{merged[i-1].Hi + 1, merged[i].Lo - 1})
	}
	if last := merged[len(merged)-1]; last.Hi < math.MaxUint64 {
		cr = append(cr, Range{last.Hi + 1, math.MaxUint64})
	}
	return cr, ""
}

// Contains reports whether field k is in rs, a list Parse returned.
func Contains(rs []Range, k uint64) bool {
	for _, r := range rs {
		if k < r.Lo {
			return false
		}
		if k <= r.Hi {
			return true
		}
	}
	return false
}
