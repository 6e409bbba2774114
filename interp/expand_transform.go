package interp

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// transform implements ${x@OP}: Q E P A a U u L K k.
func (f *frame) transform(v pval, op, name string, p *syntax.ParamExp) (pval, bool) {
	switch op {
	case "Q":
		if !v.set && !v.isList {
			return v, true
		}
		return eachValue(v, shellQuoteAlways), true
	case "E":
		return eachValue(v, func(s string) string { r, _, _ := unescape(s, true); return r }), true
	case "P":
		return v, true
	case "U":
		return eachValue(v, strings.ToUpper), true
	case "L":
		return eachValue(v, strings.ToLower), true
	case "u":
		return eachValue(v, func(s string) string {
			if s == "" {
				return s
			}
			r := []rune(s)
			r[0] = []rune(strings.ToUpper(string(r[0])))[0]
			return string(r)
		}), true
	case "a":
		vr := f.lookupVar(name)
		flags := ""
		if vr != nil {
			for _, af := range attrFlags {
				if vr.attrs&af.a != 0 {
					flags += string(af.c)
				}
			}
		}
		return eachValue(v, func(string) string { return flags }), true
	case "A":
		vr := f.lookupVar(name)
		if vr == nil {
			return pval{set: true}, true
		}
		line := strings.TrimSuffix(declLine(name, vr), "\n")
		if vr.attrs == 0 && !vr.isArray() {
			line = name + "=" + shellQuoteAlways(vr.str)
		}
		return pval{s: line, set: true}, true
	case "K", "k":
		vr := f.lookupVar(name)
		if vr == nil || !vr.isArray() {
			return eachValue(v, shellQuoteAlways), true
		}
		var parts []string
		if vr.idx != nil {
			for i, k := range vr.idx.keys {
				parts = append(parts, itoa64(k), shellQuoteAlways(vr.idx.vals[i]))
			}
		} else {
			for _, k := range vr.assoc.keys() {
				parts = append(parts, assocKeyQuote(k), shellQuoteAlways(vr.assoc.m[k].val))
			}
		}
		if op == "k" {
			return pval{list: parts, isList: true, set: true}, true
		}
		return pval{s: strings.Join(parts, " "), set: true}, true
	}
	f.errorf("%s: bad substitution", paramText(p))
	f.abort()
	return v, false
}

// shellQuoteAlways quotes as ${x@Q} does: always in single quotes, or
// $'...' with control characters.
func shellQuoteAlways(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return ansiQuote(s)
		}
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
