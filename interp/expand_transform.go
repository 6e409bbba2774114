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
		return eachValue(v, ansiC), true
	case "P":
		failed := false
		out := eachValue(v, func(s string) string {
			r, ok := f.prompt(s)
			failed = failed || !ok
			return r
		})
		return out, !failed
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
		flags := attrString(f.lookupVar(name))
		return eachValue(v, func(string) string { return flags }), true
	case "A":
		if name == "@" || name == "*" {
			// the positional parameters as the command that sets them
			if len(f.params) == 0 {
				return pval{set: true}, true
			}
			q := make([]string, len(f.params))
			for i, s := range f.params {
				q[i] = shellQuoteAlways(s)
			}
			return pval{s: "set -- " + strings.Join(q, " "), set: true}, true
		}
		name = f.resolveRef(name)
		vr := f.lookupVar(name)
		if vr == nil {
			return pval{set: true}, true
		}
		if indexWord(p.Index) != "" {
			// ${a[@]@A}: the whole array, as declare -p prints it
			return pval{s: strings.TrimSuffix(declLine(name, vr), "\n"), set: true}, true
		}
		// otherwise the one value, quoted as ${x@Q} quotes
		flags := attrString(vr)
		line := name
		if flags != "" {
			line = "declare -" + flags + " " + name
		}
		if v.set {
			line += "=" + shellQuoteAlways(v.s)
		} else if flags == "" {
			line = ""
		}
		return pval{s: line, set: true}, true
	case "K", "k":
		vr := f.lookupVar(name)
		if vr == nil || !vr.isArray() {
			return eachValue(v, shellQuoteAlways), true
		}
		// K quotes the values as declare -p does (an associative
		// array's pairs each end with a space, as there); k gives keys
		// and values as separate words, unquoted
		var parts []string
		var b strings.Builder
		if vr.idx != nil {
			for i, k := range vr.idx.keys {
				parts = append(parts, itoa64(k), vr.idx.vals[i])
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(itoa64(k) + " " + declQuote(vr.idx.vals[i]))
			}
		} else {
			for _, k := range vr.assoc.keys() {
				parts = append(parts, k, vr.assoc.m[k].val)
				b.WriteString(assocKeyQuote(k) + " " + declQuote(vr.assoc.m[k].val) + " ")
			}
		}
		if op == "k" {
			return pval{list: parts, isList: true, set: true}, true
		}
		return pval{s: b.String(), set: true}, true
	}
	f.errorf("%s: bad substitution", paramText(p))
	f.abort()
	return v, false
}

// attrString lists a variable's attributes as ${x@a} does.
func attrString(vr *variable) string {
	if vr == nil {
		return ""
	}
	flags := ""
	for _, af := range attrFlags {
		if vr.attrs&af.a != 0 {
			flags += string(af.c)
		}
	}
	return flags
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
