package interp

import (
	"sort"
	"strings"

	"github.com/bashbox/bashbox/internal/lazy"
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
	f.status = f.declare(kind, args)
	if f.opts.has(optXtrace) {
		f.traceDecl(kind, args)
	}
}

type declArg struct {
	as   *syntax.Assign // an assignment word of the source
	text string         // an expanded argument
}

// declOpts are the options of one declare, typeset, local, export or
// readonly command.
type declOpts struct {
	kind                  string
	on, off               attr
	print, funcs, fnNames bool
	global                bool
}

var declUsage = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"declare":  "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
		"typeset":  "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
		"local":    "local [option] name[=value] ...",
		"export":   "export [-fn] [name[=value] ...] or export -p",
		"readonly": "readonly [-aAf] [name[=value] ...] or readonly -p",
	}
}}

// declOptions lists the option letters each command takes besides -p.
var declOptions = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"declare": "aAfFgiIlnrtux", "typeset": "aAfFgiIlnrtux", "local": "aAfFgiIlnrtux",
		"export": "fn", "readonly": "aAf", "nameref": "",
	}
}}

func (f *frame) declare(kind string, args []declArg) int {
	o := declOpts{kind: kind}
	switch kind {
	case "nameref":
		o.on |= attrNameref
	case "export":
		o.on |= attrExport
	case "readonly":
		o.on |= attrReadonly
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
			if c != 'p' && !strings.ContainsRune(declOptions.Get()[kind], c) {
				f.errorf("%s: %c%c: invalid option", kind, a.text[0], c)
				f.fds.printf(2, "%s: usage: %s\n", kind, declUsage.Get()[kind])
				return 2
			}
			var bit attr
			switch c {
			case 'p':
				o.print = true
				continue
			case 'f':
				o.funcs = true
				continue
			case 'F':
				o.funcs, o.fnNames = true, true
				continue
			case 'g':
				o.global = true
				continue
			case 'I':
				continue
			case 'n':
				if kind == "export" {
					bit = attrExport
					minus = !minus
				} else {
					bit = attrNameref
				}
			default:
				for _, af := range attrFlags {
					if af.c == byte(c) {
						bit = af.a
					}
				}
			}
			if minus {
				o.on |= bit
				o.off &^= bit
			} else {
				o.off |= bit
				o.on &^= bit
			}
		}
	}
	args = args[i:]
	if o.funcs {
		return f.declareFuncs(o, args)
	}
	if len(args) == 0 {
		switch {
		case kind == "local":
			return f.listVars(o.on, true, true)
		case o.print || o.on != 0 || kind == "export" || kind == "readonly":
			return f.listVars(o.on, true, false)
		}
		f.listVars(0, false, false)
		f.listFuncs(0, false)
		return 0
	}
	if o.print {
		status := 0
		for _, a := range args {
			if !f.printDecl(a.name()) {
				f.errorf("%s: %s: not found", kind, a.name())
				status = 1
			}
		}
		return status
	}
	status := 0
	for _, a := range args {
		if kind == "local" && a.as == nil && a.text == "-" {
			// local -: the set options become local to the function
			if sc := f.funcScope(); sc.opts == nil {
				saved := f.opts
				sc.opts = &saved
			}
			continue
		}
		if !f.declareOne(o, a) {
			if f.ctl != ctlNone {
				return 1
			}
			status = 1
		}
	}
	return status
}

// name is the name an argument declares (before any = or [).
func (a declArg) name() string {
	if a.as != nil {
		return a.as.Name.Value
	}
	return a.text
}

// errorf prints an error of the declaring command: declare, typeset and
// local name themselves in it, export and readonly do not.
func (o declOpts) errorf(f *frame, format string, args ...any) {
	switch o.kind {
	case "declare", "typeset", "local":
		format = o.kind + ": " + format
	}
	f.errorf(format, args...)
}

// declareOne declares one name with attributes and an optional value.
func (f *frame) declareOne(o declOpts, a declArg) bool {
	var name, index, value string
	var appendTo, hasValue bool
	var arr *syntax.ArrayExpr
	var idxExpr syntax.ArithmExpr
	text := a.text
	if a.as != nil {
		name = a.as.Name.Value
		appendTo = a.as.Append
		idxExpr = a.as.Index
		switch {
		case a.as.Array != nil:
			arr, hasValue = a.as.Array, true
		case !a.as.Naked:
			v, ok := f.assignValue(a.as.Value)
			if !ok {
				return false
			}
			value, hasValue = v, true
		}
	} else {
		name, index, value, appendTo, hasValue = splitAssignText(a.text)
		if index != "" {
			idxExpr = subscriptOf(index)
		}
		if hasValue && index == "" && strings.HasPrefix(value, "(") && strings.HasSuffix(value, ")") && o.on&(attrIndexed|attrAssoc) != 0 {
			arr = parseCompound(value)
		}
	}
	if !syntax.ValidName(name) {
		if a.as != nil {
			text = printed(a.as)
		}
		f.errorf("%s: `%s': not a valid identifier", o.kind, text)
		return false
	}
	on, off := o.on, o.off
	if on&(attrIndexed|attrAssoc) != 0 {
		on &^= attrNameref // -a and -A win over -n
	}
	local := (o.kind == "local" || o.kind == "declare" || o.kind == "typeset") && len(f.funcNames) > 0 && !o.global

	// The variable declared: a nameref's target unless -n or +n is given.
	target := name
	if (on|off)&attrNameref == 0 {
		if v := f.lookupRaw(name); isRef(v) && (!local || f.funcScope().vars[name] != nil) {
			target = f.resolveRef(name)
			if target == "" {
				return false
			}
			if strings.IndexByte(target, '[') >= 0 {
				if hasValue {
					return f.assign(target, value, appendTo)
				}
				return true
			}
		}
	}
	var sc *scope
	switch {
	case local:
		sc = f.funcScope()
	case o.global:
		sc = f.global
	default:
		sc = f.scopeFor(target)
	}
	v := sc.vars[target]
	if v == nil && local {
		// A new local: it shadows the outer variable, keeping only its
		// export attribute, and cannot shadow a readonly one.
		if outer := f.lookupRaw(target); outer != nil && outer.attrs&attrReadonly != 0 {
			o.errorf(f, "%s: readonly variable", target)
			return false
		} else if outer != nil {
			v = &variable{gen: sc.gen, attrs: outer.attrs & attrExport}
			sc.put(target, v)
		}
	}
	if v != nil && v.attrs&attrReadonly != 0 && (hasValue || off&attrReadonly != 0) {
		o.errorf(f, "%s: readonly variable", target)
		return false
	}
	if v != nil {
		switch {
		case off&(attrIndexed|attrAssoc) != 0 && v.isArray():
			o.errorf(f, "%s: cannot destroy array variables in this way", target)
			return false
		case on&attrAssoc != 0 && v.idx != nil:
			o.errorf(f, "%s: cannot convert indexed to associative array", target)
			return false
		case on&attrIndexed != 0 && v.assoc != nil:
			o.errorf(f, "%s: cannot convert associative to indexed array", target)
			return false
		case on&attrNameref != 0 && v.isArray():
			o.errorf(f, "%s: reference variable cannot be an array", target)
			return false
		}
	}
	if on&attrNameref != 0 {
		ref := value
		if !hasValue && v != nil && v.set {
			ref = v.str
		}
		if ref != "" && !validRef(ref) || isSpecialParam(ref) {
			o.errorf(f, "`%s': invalid variable name for name reference", ref)
			return false
		}
		if ref == target && (hasValue || v != nil && v.set) {
			if !local {
				o.errorf(f, "%s: nameref variable self references not allowed", target)
				return false
			}
			o.errorf(f, "warning: %s: circular name reference", target)
		}
	}
	if v == nil {
		v = &variable{gen: sc.gen}
		if f.opts.has(optAllexport) {
			v.attrs |= attrExport
		}
		sc.put(target, v)
	} else {
		v = sc.owned(target)
	}
	attrs := v.attrs&^off | on&^attrReadonly
	if on&attrUpper != 0 {
		attrs &^= attrLower
	}
	if on&attrLower != 0 {
		attrs &^= attrUpper
	}
	v.attrs = attrs
	switch {
	case v.attrs&attrIndexed != 0 && v.idx == nil:
		v.idx = &sparse{}
		if v.set {
			v.idx.set(0, v.str)
		}
		v.str, v.sb = "", nil
	case v.attrs&attrAssoc != 0 && v.assoc == nil:
		v.assoc = newAssoc()
		if v.set {
			v.assoc.set("0", v.str)
		}
		v.str, v.sb = "", nil
	}
	ok := true
	if hasValue && v.attrs&attrInteger != 0 && o.kind != "export" && o.kind != "readonly" {
		// an integer's value is evaluated by the command: its errors
		// name it (an expansion's error, before, does not)
		c0, fa := f.arithFor(o.kind, false)
		defer f.arithRestore(c0, fa)
	}
	if hasValue {
		switch {
		case arr != nil:
			ok = f.assignArrayIn(sc, target, arr, appendTo, v.attrs&attrAssoc != 0)
		case idxExpr != nil:
			ok = f.assignIndexIn(sc, target, idxExpr, value, appendTo)
		case v.attrs&attrNameref != 0:
			v.str, v.set, v.sb = value, true, nil
		default:
			ok = f.assignIn(sc, target, value, appendTo)
		}
	}
	if on&attrReadonly != 0 {
		v.attrs |= attrReadonly
	}
	return ok
}

// parseCompound parses the "(...)" of declare -a "a=(1 2)".
func parseCompound(value string) *syntax.ArrayExpr {
	p, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("x="+value), "")
	if err != nil || len(p.Stmts) != 1 {
		return nil
	}
	if call, ok := p.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Assigns) == 1 {
		return call.Assigns[0].Array
	}
	return nil
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

// funcMeta is what a function carries besides its body: the source its
// positions point into (for printing it and for errors), the attributes
// declare -f shows (x, r), and where it was defined: its BASH_SOURCE
// ("" for a function from the environment) and the line offset its
// statements' positions are relative to (eval shifts it).
type funcMeta struct {
	src      string
	attrs    attr
	source   string
	lineBase int
}

// defineFunc runs a function definition; a readonly function cannot be
// redefined.
func (f *frame) defineFunc(name string, body *syntax.Stmt) int {
	m := f.funcMeta[name]
	if m.attrs&attrReadonly != 0 {
		f.errorf("%s: readonly function", name)
		return 1
	}
	f.setFunc(name, body)
	m.src, m.source, m.lineBase = f.src, f.curSource(), f.lineBase
	f.setFuncMeta(name, m)
	return 0
}

// unsetFunc removes a function (unset -f); a readonly one stays.
func (f *frame) unsetFunc(name string) bool {
	if _, ok := f.funcs[name]; !ok {
		return true
	}
	if f.funcMeta[name].attrs&attrReadonly != 0 {
		f.errorf("unset: %s: cannot unset: readonly function", name)
		return false
	}
	f.setFunc(name, nil)
	return true
}

func (f *frame) setFuncMeta(name string, m funcMeta) {
	if f.funcMeta == nil {
		f.funcMeta, f.metaShared = map[string]funcMeta{}, false
	}
	cowSet(&f.funcMeta, &f.metaShared, name, m, false)
}

// funcString prints a defined function as declare -f does.
func (f *frame) funcString(name string) string {
	return funcTextSrc(name, f.funcs[name], f.funcMeta[name].src, true)
}

// declareFuncs runs declare -f/-F, export -f and readonly -f: with
// names, it prints the functions or sets their attributes; without,
// it lists the functions that have the attributes asked for.
func (f *frame) declareFuncs(o declOpts, args []declArg) int {
	set := o.on & (attrExport | attrReadonly)
	if len(args) == 0 {
		f.listFuncsAs(set, o.fnNames, true)
		return 0
	}
	status := 0
	for _, a := range args {
		name := a.name()
		if _, ok := f.funcs[name]; !ok {
			if set != 0 || o.off != 0 {
				f.errorf("%s: %s: not a function", o.kind, name)
			}
			status = 1
			continue
		}
		if set != 0 || o.off&(attrExport|attrReadonly) != 0 {
			m := f.funcMeta[name]
			if m.attrs&attrReadonly != 0 && o.off&attrReadonly != 0 {
				o.errorf(f, "%s: readonly function", name)
				status = 1
				continue
			}
			m.attrs = m.attrs&^o.off | set
			f.setFuncMeta(name, m)
			continue
		}
		if o.fnNames {
			f.fds.writeString(1, name+"\n")
		} else {
			f.fds.writeString(1, f.funcString(name)+"\n")
		}
	}
	return status
}

// listFuncs lists the functions with all the attributes in filter, as
// declare -f does: their text and a declare -f line for those with
// attributes; with names (-F), only the declare -f lines; with filter
// 0 and no names, only the text (set, a bare declare).
func (f *frame) listFuncs(filter attr, names bool) {
	f.listFuncsAs(filter, names, filter != 0 || names)
}

func (f *frame) listFuncsAs(filter attr, names, attrLines bool) {
	list := make([]string, 0, len(f.funcs))
	for n := range f.funcs {
		if f.funcMeta[n].attrs&filter == filter {
			list = append(list, n)
		}
	}
	sort.Strings(list)
	var b strings.Builder
	for _, n := range list {
		flags := "f"
		for _, af := range attrFlags {
			if f.funcMeta[n].attrs&af.a != 0 {
				flags += string(af.c)
			}
		}
		if !names {
			b.WriteString(f.funcString(n) + "\n")
			if flags == "f" || !attrLines {
				continue
			}
		}
		b.WriteString("declare -" + flags + " " + n + "\n")
	}
	f.fds.writeString(1, b.String())
}

// importFunc defines a function passed in the environment as bash passes
// them (BASH_FUNC_name%%=() { ... }), exported as it came.
func (f *frame) importFunc(name, def string) {
	if !strings.HasPrefix(def, "() {") || !validFuncName(name) {
		return
	}
	src := name + " " + def
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || len(file.Stmts) != 1 {
		return
	}
	fd, ok := file.Stmts[0].Cmd.(*syntax.FuncDecl)
	if !ok || fd.Name == nil || fd.Name.Value != name {
		return
	}
	f.setFunc(name, fd.Body)
	f.setFuncMeta(name, funcMeta{src: src, attrs: attrExport})
}

func validFuncName(name string) bool {
	return name != "" && !strings.ContainsAny(name, " \t\n/$`'\"\\=;&|<>()")
}

// restoreOpts puts back the set options saved by local - when the
// function whose scope sc is returns; shopt options stay as they are.
func (f *frame) restoreOpts(sc *scope) {
	if sc.opts == nil {
		return
	}
	for _, so := range setOptions {
		if so.bit != 0 {
			f.opts.put(so.bit, sc.opts.has(so.bit))
		}
	}
}
