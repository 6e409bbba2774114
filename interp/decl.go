package interp

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// declClause runs declare, typeset, local, export, readonly and nameref.
func (f *frame) declClause(c *syntax.DeclClause) {
	kind := c.Variant.Value
	f.status = 0
	var args []declArg
	for _, as := range c.Args {
		switch {
		case as.Naked && as.Name == nil:
			vals, ok := f.fields([]*syntax.Word{as.Value})
			if !ok {
				return
			}
			for _, s := range vals {
				args = append(args, declArg{text: s})
			}
		default:
			args = append(args, declArg{as: as})
		}
	}
	if f.opts.has(optXtrace) {
		var words []string
		for _, a := range args {
			if a.as != nil {
				words = append(words, a.as.Name.Value)
			} else {
				words = append(words, a.text)
			}
		}
		f.trace(append([]string{kind}, words...))
	}
	f.status = f.declare(kind, args)
}

type declArg struct {
	as   *syntax.Assign // an assignment word of the source
	text string         // an expanded argument
}

func (f *frame) declare(kind string, args []declArg) int {
	var on, off attr
	var print, funcs, funcNames, global, unexport bool
	if kind == "nameref" {
		on |= attrNameref
	}
	if kind == "export" {
		on |= attrExport
	}
	if kind == "readonly" {
		on |= attrReadonly
	}
	if kind == "local" && len(f.funcNames) == 0 {
		f.errorf("local: can only be used in a function")
		return 1
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.as != nil || len(a.text) < 2 || a.text[0] != '-' && a.text[0] != '+' {
			break
		}
		if a.text == "--" {
			i++
			break
		}
		minus := a.text[0] == '-'
		for _, c := range a.text[1:] {
			var bit attr
			switch c {
			case 'p':
				print = true
				continue
			case 'f':
				funcs = true
				continue
			case 'F':
				funcNames = true
				continue
			case 'g':
				global = true
				continue
			case 'n':
				if kind == "export" {
					unexport = true
					continue
				}
				bit = attrNameref
			default:
				found := false
				for _, af := range attrFlags {
					if af.c == byte(c) {
						bit, found = af.a, true
					}
				}
				if !found {
					f.errorf("%s: %s: invalid option", kind, a.text)
					f.fds.printf(2, "%s: usage: %s\n", kind, declUsage[kind])
					return 2
				}
			}
			if minus {
				on |= bit
			} else {
				off |= bit
			}
		}
	}
	args = args[i:]
	if funcs || funcNames {
		return f.printFuncs(args, funcNames)
	}
	if len(args) == 0 {
		if kind == "local" && !print {
			return f.listVars(on, true, true)
		}
		if print || on != 0 || kind == "export" || kind == "readonly" {
			return f.listVars(on, true, false)
		}
		return f.listVars(on, false, false)
	}
	if print {
		status := 0
		for _, a := range args {
			name := a.text
			if a.as != nil {
				name = a.as.Name.Value
			}
			if !f.printDecl(name) {
				f.errorf("declare: %s: not found", name)
				status = 1
			}
		}
		return status
	}
	status := 0
	for _, a := range args {
		if !f.declareOne(kind, a, on, off, global, unexport) {
			if f.ctl != ctlNone {
				return 1
			}
			status = 1
		}
	}
	return status
}

var declUsage = map[string]string{
	"declare":  "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
	"typeset":  "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
	"local":    "local [option] name[=value] ...",
	"export":   "export [-fn] [name[=value] ...] or export -p",
	"readonly": "readonly [-aAf] [name[=value] ...] or readonly -p",
}

// declareOne declares one name with attributes and an optional value.
func (f *frame) declareOne(kind string, a declArg, on, off attr, global, unexport bool) bool {
	var name, index, value string
	var appendTo, hasValue bool
	var arr *syntax.ArrayExpr
	if a.as != nil {
		name = a.as.Name.Value
		appendTo = a.as.Append
		if a.as.Index != nil {
			index = arithText(a.as.Index)
		}
		switch {
		case a.as.Array != nil:
			arr, hasValue = a.as.Array, true
		case !a.as.Naked:
			v, ok := f.literal(a.as.Value)
			if !ok {
				return false
			}
			value, hasValue = v, true
		}
	} else {
		name, index, value, appendTo, hasValue = splitAssignText(a.text)
		if hasValue && strings.HasPrefix(value, "(") && strings.HasSuffix(value, ")") && (on&(attrIndexed|attrAssoc) != 0) {
			// declare -a "a=(1 2)": the value is parsed as a compound assignment
			if p, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("x="+value), ""); err == nil && len(p.Stmts) == 1 {
				if call, ok := p.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Assigns) == 1 && call.Assigns[0].Array != nil {
					arr = call.Assigns[0].Array
				}
			}
		}
	}
	if !syntax.ValidName(name) {
		f.errorf("%s: `%s': not a valid identifier", kind, a.text)
		return false
	}
	local := (kind == "local" || kind == "declare" || kind == "typeset") && len(f.funcNames) > 0 && !global
	var sc *scope
	if local {
		sc = f.funcScope()
	} else if on&attrNameref == 0 {
		sc = f.scopeFor(f.resolveRef(name))
		if global {
			sc = f.global
		}
	} else {
		sc = f.scopeFor(name)
	}
	target := name
	if on&attrNameref == 0 && !local {
		target = f.resolveRef(name)
	}
	existing := sc.vars[target]
	if existing != nil && existing.attrs&attrReadonly != 0 && (hasValue || on&^attrReadonly != 0 || off != 0) {
		f.errorf("%s: readonly variable", target)
		return false
	}
	v := sc.owned(target)
	if v == nil {
		v = &variable{gen: sc.gen}
		if local {
			// localvar_inherit is off: a new local starts unset, but
			// keeps nothing of the outer variable.
		}
		sc.vars[target] = v
	}
	if on&attrAssoc != 0 && v.idx != nil {
		f.errorf("%s: %s: cannot convert indexed to associative array", kind, target)
		return false
	}
	if on&attrIndexed != 0 && v.assoc != nil {
		f.errorf("%s: %s: cannot convert associative to indexed array", kind, target)
		return false
	}
	v.attrs = v.attrs&^off | on&^attrReadonly
	if unexport {
		v.attrs &^= attrExport
	}
	if on&attrUpper != 0 {
		v.attrs &^= attrLower
	}
	if on&attrLower != 0 {
		v.attrs &^= attrUpper
	}
	if v.attrs&attrIndexed != 0 && v.idx == nil {
		v.idx = &sparse{}
		if v.set && !hasValue {
			v.idx.set(0, v.str)
		}
		v.str = ""
	}
	if v.attrs&attrAssoc != 0 && v.assoc == nil {
		v.assoc = newAssoc()
		v.str = ""
	}
	ok := true
	if hasValue {
		saved := f.vars
		f.vars = sc // assign in the declared scope
		for f.vars.parent != nil && false {
		}
		switch {
		case arr != nil:
			ok = f.assignArray(target, arr, appendTo, v.attrs&attrAssoc != 0)
		case index != "":
			ok = f.assignIndex(target, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: index}}}, value, appendTo)
		case v.attrs&attrNameref != 0:
			if value != "" && !validRef(value) {
				f.vars = saved
				f.errorf("%s: `%s': invalid variable name for name reference", kind, value)
				return false
			}
			v.str, v.set, v.sb = value, true, nil
		default:
			ok = f.assign(target, value, appendTo)
		}
		f.vars = saved
	}
	if on&attrReadonly != 0 {
		v.attrs |= attrReadonly
	}
	if kind == "export" || kind == "readonly" {
		if !hasValue && !v.set && v.idx == nil && v.assoc == nil {
			// export NAME of an unset variable marks it; it stays unset
		}
	}
	return ok
}

// funcScope returns the innermost function scope (local's target).
func (f *frame) funcScope() *scope {
	for sc := f.vars; sc != nil; sc = sc.parent {
		if sc.fn != "" {
			return sc
		}
	}
	return f.global
}

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
	for _, c := range k {
		if strings.ContainsRune(" \t\n\"'\\$`;&|<>()*?[]", c) {
			return declQuote(k)
		}
	}
	return k
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
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return ansiQuote(s)
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-./:,+@%^=", c) >= 0 || c >= 0x80) {
			safe = false
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// printFuncs implements declare -f and -F.
func (f *frame) printFuncs(args []declArg, namesOnly bool) int {
	var names []string
	if len(args) == 0 {
		for n := range f.funcs {
			names = append(names, n)
		}
		sort.Strings(names)
	} else {
		for _, a := range args {
			if a.as != nil && a.as.Name != nil { // a bare name the parser read as an assignment
				names = append(names, a.as.Name.Value)
				continue
			}
			names = append(names, a.text)
		}
	}
	status := 0
	for _, n := range names {
		body, ok := f.funcs[n]
		if !ok {
			status = 1
			continue
		}
		if namesOnly {
			if len(args) > 0 { // declare -F NAME prints the name alone
				f.fds.writeString(1, n+"\n")
			} else {
				f.fds.writeString(1, "declare -f "+n+"\n")
			}
			continue
		}
		f.fds.writeString(1, f.funcDef(n, body)+"\n")
	}
	return status
}

// funcText prints a function as bash does.
func funcText(name string, body *syntax.Stmt) string {
	if text, ok := bashFuncText(name, body, ""); ok {
		return text
	}
	var b strings.Builder
	syntax.NewPrinter(syntax.Indent(4), syntax.FunctionNextLine(true)).Print(&b, &syntax.FuncDecl{Name: &syntax.Lit{Value: name}, Body: body, Parens: true})
	return strings.TrimRight(b.String(), "\n")
}
