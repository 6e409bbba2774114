package interp

import (
	"sort"
	"strings"
)

// listVars lists variables: with decl, as declare -p does (filtered by
// attributes); without, as set does. localOnly lists the current
// function's locals.
func (f *frame) listVars(filter attr, decl, localOnly bool) int {
	names := map[string]*variable{}
	for sc := f.vars; sc != nil; sc = sc.parent {
		if localOnly && sc.fn == "" {
			continue
		}
		for n, v := range sc.vars {
			if _, ok := names[n]; !ok {
				names[n] = v
			}
		}
		if localOnly {
			break
		}
	}
	keys := make([]string, 0, len(names))
	for n, v := range names {
		if v.attrs&filter != filter {
			continue
		}
		if !decl && !v.set && v.idx == nil && v.assoc == nil {
			continue
		}
		keys = append(keys, n)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, n := range keys {
		v := names[n]
		if decl {
			b.WriteString(declLine(n, v))
		} else {
			b.WriteString(setLine(n, v))
		}
	}
	f.fds.writeString(1, b.String())
	return 0
}

func (f *frame) printDecl(name string) bool {
	v := f.lookupRaw(name)
	if v == nil {
		if dv, ok := f.dynamicArray(name); ok {
			v = dv
		} else if s, ok, dyn := f.dynamic(name); dyn && ok {
			v = &variable{set: true, str: s}
			if name == "BASHPID" || name == "RANDOM" || name == "SECONDS" || name == "LINENO" {
				v.attrs |= attrInteger
			}
		} else {
			return false
		}
	}
	f.fds.writeString(1, declLine(name, v))
	return true
}

// declLine is declare -p's line for a variable.
func declLine(name string, v *variable) string {
	var b strings.Builder
	b.WriteString("declare -")
	flags := ""
	for _, af := range attrFlags {
		if v.attrs&af.a != 0 {
			flags += string(af.c)
		}
	}
	if flags == "" {
		flags = "-"
	}
	b.WriteString(flags)
	b.WriteByte(' ')
	b.WriteString(name)
	switch {
	case v.idx != nil:
		if !v.set && v.idx.len() == 0 {
			break
		}
		b.WriteString("=(")
		for i, k := range v.idx.keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + itoa64(k) + "]=" + declQuote(v.idx.vals[i]))
		}
		b.WriteString(")")
	case v.assoc != nil:
		if !v.set && len(v.assoc.m) == 0 {
			break
		}
		b.WriteString("=(")
		for _, k := range v.assoc.keys() {
			b.WriteString("[" + assocKeyQuote(k) + "]=" + declQuote(v.assoc.m[k].val) + " ")
		}
		b.WriteString(")")
	case v.set:
		b.WriteString("=" + declQuote(v.str))
	}
	b.WriteByte('\n')
	return b.String()
}

func assocKeyQuote(k string) string {
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] == 0x7f {
			return ansiQuote(k)
		}
	}
	if shellMetas(k) {
		return declQuote(k)
	}
	return k
}

// shellMetas is bash's sh_contains_shell_metas: whether s needs quoting
// to be read back as one word.
func shellMetas(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>',
			'!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			return true
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return true
			}
		case '#':
			if i == 0 {
				return true
			}
		}
	}
	return false
}

// declQuote double-quotes a value as declare -p does.
func declQuote(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return ansiQuote(s)
		}
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		if c == '"' || c == '\\' || c == '$' || c == '`' {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String()
}

// setLine is set's line for a variable.
func setLine(name string, v *variable) string {
	switch {
	case v.idx != nil:
		var b strings.Builder
		b.WriteString(name + "=(")
		for i, k := range v.idx.keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + itoa64(k) + "]=" + declQuote(v.idx.vals[i]))
		}
		b.WriteString(")\n")
		return b.String()
	case v.assoc != nil:
		var b strings.Builder
		b.WriteString(name + "=(")
		for _, k := range v.assoc.keys() {
			b.WriteString("[" + assocKeyQuote(k) + "]=" + declQuote(v.assoc.m[k].val) + " ")
		}
		b.WriteString(")\n")
		return b.String()
	}
	return name + "=" + setQuote(v.str) + "\n"
}

// setQuote quotes a value as set prints it: bare when safe, else in
// single quotes, or $'...' with control characters.
func setQuote(s string) string {
	if s == "" {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return ansiQuote(s)
		}
	}
	if !shellMetas(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
