package interp

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

func itoa(n int) string     { return strconv.Itoa(n) }
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
func nowUnix() int64        { return time.Now().Unix() }

func parseDecimal(s string) (int64, error) {
	return strconv.ParseInt(strings.TrimSpace(s), 10, 64)
}

// initVars sets the starting variables: the environment (exported) and
// bash's own, with sandbox values.
func (f *frame) initVars(env []string) {
	// The starting variables come from one allocation: every call pays
	// for them (a variable written later is changed in place or replaced).
	batch := make([]variable, 0, len(nativeShellVars)+len(env)+5)
	newVar := func(v variable) *variable {
		v.gen = f.global.gen
		if len(batch) == cap(batch) {
			p := new(variable)
			*p = v
			return p
		}
		batch = append(batch, v)
		return &batch[len(batch)-1]
	}
	for name, val := range nativeShellVars {
		f.global.put(name, newVar(variable{set: true, str: val}))
	}
	for _, name := range []string{"UID", "EUID", "PPID"} {
		f.global.vars[name].attrs |= attrReadonly | attrInteger
	}
	for _, kv := range env {
		name, val, ok := strings.Cut(kv, "=")
		if fn, isFunc := strings.CutPrefix(name, "BASH_FUNC_"); isFunc && strings.HasSuffix(fn, "%%") {
			f.importFunc(strings.TrimSuffix(fn, "%%"), val)
			continue
		}
		if !ok || !syntax.ValidName(name) {
			continue
		}
		f.global.put(name, newVar(variable{set: true, str: val, attrs: attrExport}))
	}
	// bash exports SHLVL, one more than it inherits
	shlvl := int64(0)
	if v := f.global.vars["SHLVL"]; v != nil {
		shlvl, _ = parseDecimal(v.str)
	}
	f.global.put("SHLVL", newVar(variable{set: true, str: itoa64(max(shlvl, 0) + 1), attrs: attrExport}))
	if _, ok := f.global.vars["IFS"]; !ok {
		f.global.put("IFS", newVar(variable{set: true, str: " \t\n"}))
	}
	// bash exports PWD from its start, set to where it starts (an
	// inherited PWD naming another directory, as after env -C, is
	// replaced), and OLDPWD too once cd sets it (declared exported but
	// unset until then).
	f.global.put("PWD", newVar(variable{set: true, str: f.dir, attrs: attrExport}))
	if _, ok := f.global.vars["OLDPWD"]; !ok {
		f.global.put("OLDPWD", newVar(variable{attrs: attrExport}))
	}
	info := []string{"5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"}
	ver := newVar(variable{attrs: attrIndexed | attrReadonly, set: true, idx: &sparse{keys: []int64{0, 1, 2, 3, 4, 5}, vals: info}})
	for _, s := range info {
		ver.idx.bytes += int64(len(s)) + elemOverhead
	}
	f.global.put("BASH_VERSINFO", ver)
}

// nativeShellVars are bash's unexported variables a script sees.
var nativeShellVars = map[string]string{
	"UID": "1000", "EUID": "1000", "PPID": "1",
	"BASH_VERSION": "5.2.15(1)-release", "HOSTNAME": "bashbox", "OSTYPE": "linux-gnu",
	"MACHTYPE": "x86_64-pc-linux-gnu", "HOSTTYPE": "x86_64", "BASH": "/bin/bash",
	"PS4": "+ ", "OPTIND": "1", "OPTERR": "1",
}

// lookupRaw finds a variable without following namerefs.
func (f *frame) lookupRaw(name string) *variable {
	if sc := f.vars; sc != nil && sc.parent == nil {
		return sc.get(name) // the global scope alone: a top-level loop
	}
	for sc := f.vars; sc != nil; sc = sc.parent {
		if v, ok := sc.vars[name]; ok {
			return v
		}
	}
	return nil
}

// maxNamerefs is how many references bash follows before it calls a
// chain circular (its NAMEREF_MAX).
const maxNamerefs = 8

// resolveRef follows namerefs from name to the name a read or a write
// goes to, which may carry a subscript ("arr[1]": a reference to an
// element). A circular chain is reported as bash reports it and gives "".
func (f *frame) resolveRef(name string) string {
	orig := name
	for i := 0; ; i++ {
		v := f.lookupRaw(name)
		if v == nil || v.attrs&attrNameref == 0 || !v.set || v.str == "" {
			return name
		}
		if i == maxNamerefs || v.str == name {
			f.errorf("warning: %s: circular name reference", orig)
			return ""
		}
		name = v.str
		if strings.IndexByte(name, '[') >= 0 {
			return name
		}
	}
}

// isRef says whether v is a nameref that names something.
func isRef(v *variable) bool {
	return v != nil && v.attrs&attrNameref != 0 && v.set && v.str != ""
}

// lookupVar finds a variable, following namerefs; a reference to an
// element finds the array.
func (f *frame) lookupVar(name string) *variable {
	v := f.lookupRaw(name)
	if isRef(v) {
		t := f.resolveRef(name)
		if t == "" {
			return nil
		}
		base, _, _ := strings.Cut(t, "[")
		return f.lookupRaw(base)
	}
	return v
}

// subscriptOf makes the subscript of a reference given as text
// ("arr[i+1]") into the expression a subscript in the source would be.
func subscriptOf(sub string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: strings.TrimSuffix(sub, "]")}}}
}

// getVar returns a parameter's value as $name gives it, special
// parameters included.
func (f *frame) getVar(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	if name[0] < 'A' || name[0] > 'z' || name[0] == '_' && len(name) == 1 {
		if s, ok, special := f.special(name); special {
			return s, ok
		}
	}
	v := f.lookupRaw(name)
	if isRef(v) {
		t := f.resolveRef(name)
		if t == "" {
			return "", false
		}
		if base, sub, ok := strings.Cut(t, "["); ok {
			p, _ := f.fetch(base, subscriptOf(sub))
			return p.s, p.set
		}
		return f.getVar(t)
	}
	if v == nil {
		if s, ok, dyn := f.dynamic(name); dyn {
			return s, ok
		}
		return "", false
	}
	return v.value()
}

// scopeFor returns the scope a plain assignment to name writes: where the
// variable lives, else the global scope.
func (f *frame) scopeFor(name string) *scope {
	for sc := f.vars; sc != nil; sc = sc.parent {
		if _, ok := sc.vars[name]; ok {
			return sc
		}
	}
	return f.global
}

// writable returns the variable name in sc ready to be written, creating
// it; nil (with bash's message printed) for a readonly one.
func (f *frame) writable(sc *scope, name string) *variable {
	v := sc.owned(name)
	if v == nil {
		v = &variable{gen: sc.gen}
		if f.opts.has(optAllexport) {
			v.attrs |= attrExport
		}
		sc.put(name, v)
		return v
	}
	if v.attrs&attrReadonly != 0 {
		f.errorf("%s: readonly variable", name)
		return nil
	}
	return v
}

// convert applies -i, -l and -u to a value being assigned.
func (f *frame) convert(v *variable, val string) (string, bool) {
	if v.attrs&attrInteger != 0 {
		// An error assigning an integer variable ends the shell in bash,
		// unless a command (declare, let, (( ))) is assigning.
		c0, fa := f.arithFor(f.arithCmd, f.arithCmd == "")
		n, ok := f.arithString(val)
		f.arithRestore(c0, fa)
		if !ok {
			return "", false
		}
		return itoa64(n), true
	}
	switch {
	case v.attrs&attrUpper != 0:
		return strings.ToUpper(val), true
	case v.attrs&attrLower != 0:
		return strings.ToLower(val), true
	}
	return val, true
}

// assignLoopVar sets a for loop's variable: a nameref control variable
// is pointed at each word in turn, as bash does.
func (f *frame) assignLoopVar(name, val string) bool {
	if v := f.lookupRaw(name); v != nil && v.attrs&attrNameref != 0 {
		sc := f.scopeFor(name)
		if v.attrs&attrReadonly != 0 {
			f.errorf("%s: readonly variable", name)
			f.status = 1
			return false
		}
		v = sc.owned(name)
		v.str, v.set, v.sb = val, true, nil
		return true
	}
	return f.assign(name, val, false)
}

// assignScalar sets name=val where a plain assignment would.
func (f *frame) assignScalar(name, val string) bool {
	return f.assign(name, val, false)
}

// assign sets name=val (or appends, +=). On a readonly variable it prints
// bash's message, sets status 1 and fails; whether that abandons the
// command line is the caller's to say (an assignment statement does, read
// and for do not).
func (f *frame) assign(name, val string, appendTo bool) bool {
	if !appendTo {
		// The common case in one lookup: a plain scalar its scope owns.
		if v := f.ownedPlain(name); v != nil {
			if !f.charge(int64(len(val) - len(v.str))) {
				return false
			}
			v.str, v.sb, v.set = val, nil, true
			return true
		}
	}
	return f.assignIn(nil, name, val, appendTo)
}

// assignIn is assign in scope sc (nil: where the variable lives, else
// the global scope).
func (f *frame) assignIn(sc *scope, name, val string, appendTo bool) bool {
	name = f.resolveRef(name)
	if name == "" {
		f.status = 1
		return false
	}
	if target, sub, ok := strings.Cut(name, "["); ok { // a nameref to an element
		return f.assignIndex(target, subscriptOf(sub), val, appendTo)
	}
	if sc == nil {
		sc = f.scopeFor(name)
	}
	if _, real := sc.vars[name]; !real {
		if d := f.dynVarOf(name); d != nil {
			if d.attrs&attrReadonly != 0 {
				f.errorf("%s: readonly variable", name)
				f.status = 1
				return false
			}
			if d.set != nil {
				return d.set(f, val)
			}
			return true
		}
	}
	if name == "OPTIND" {
		f.getoptsPos = 0
	}
	if name == "GLOBIGNORE" && (val != "" || appendTo) {
		// as in bash, a non-null GLOBIGNORE turns dotglob on
		f.opts.put(optDotglob, true)
	}
	v := f.writable(sc, name)
	if v == nil {
		f.status = 1
		return false
	}
	if appendTo && v.attrs&attrInteger != 0 {
		old, _ := v.value()
		val = "(" + orZero(old) + ")+(" + val + ")"
		appendTo = false
	}
	val, ok := f.convert(v, val)
	if !ok {
		return false
	}
	switch {
	case v.idx != nil:
		if appendTo {
			old, _ := v.idx.get(0)
			val = old + val
		}
		if !f.charge(int64(len(val))) {
			return false
		}
		v.idx.set(0, val)
		v.set = true
		return true
	case v.assoc != nil:
		if appendTo {
			old, _ := v.assoc.get("0")
			val = old + val
		}
		if !f.charge(int64(len(val))) {
			return false
		}
		v.assoc.set("0", val)
		v.set = true
		return true
	}
	if appendTo && v.set {
		if !f.charge(int64(len(val))) {
			return false
		}
		// The new buffer and the old exist together while it grows.
		if n := v.appendGrowth(len(val)); n > bigString && !f.call.sh.Budget.fits(int64(n)) {
			f.ctl, f.status = ctlExit, 125
			return false
		}
		v.appendStr(val)
	} else {
		if !f.charge(int64(len(val) - len(v.str))) {
			return false
		}
		v.str, v.sb = val, nil
	}
	v.set = true
	return true
}

// ownedPlain returns the variable name if it is a scalar without
// attributes that change or guard its value, owned by the scope that has
// it, and not one the shell watches; else nil.
func (f *frame) ownedPlain(name string) *variable {
	for sc := f.vars; sc != nil; sc = sc.parent {
		var v *variable
		if sc.parent == nil {
			if v = sc.get(name); v == nil {
				continue
			}
		} else {
			var ok bool
			if v, ok = sc.vars[name]; !ok {
				continue
			}
		}
		if v == nil || v.gen != sc.gen || v.idx != nil || v.assoc != nil ||
			v.attrs&(attrNameref|attrReadonly|attrInteger|attrLower|attrUpper) != 0 {
			return nil
		}
		switch name {
		case "SECONDS", "RANDOM", "PWD", "OPTIND":
			return nil
		}
		return v
	}
	return nil
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// charge counts bytes a variable grows by against the memory budget.
func (f *frame) charge(n int64) bool {
	if !f.call.sh.Budget.charge(n) {
		f.ctl, f.status = ctlExit, 125
		return false
	}
	return true
}

// assignIndex sets name[index]=val. Like assign, it leaves abandoning the
// command line to the caller.
func (f *frame) assignIndex(name string, index syntax.ArithmExpr, val string, appendTo bool) bool {
	return f.assignIndexIn(nil, name, index, val, appendTo)
}

// assignIndexIn is assignIndex in scope sc (nil: as assignIndex finds).
func (f *frame) assignIndexIn(sc *scope, name string, index syntax.ArithmExpr, val string, appendTo bool) bool {
	name = f.resolveRef(name)
	if name == "" {
		f.status = 1
		return false
	}
	if strings.IndexByte(name, '[') >= 0 { // a nameref to an element, subscripted
		f.errorf("%s: bad array subscript", name)
		f.status = 1
		return false
	}
	if w := indexWord(index); w != "" {
		f.errorf("%s[%s]: bad array subscript", name, w)
		f.status = 1
		return false
	}
	if sc == nil {
		sc = f.scopeFor(name)
	}
	if cur := sc.vars[name]; cur != nil && cur.attrs&attrReadonly != 0 {
		f.errorf("%s: readonly variable", name)
		f.status = 1
		return false
	}
	if cur := sc.vars[name]; cur != nil && cur.assoc != nil {
		key, ok := f.assocKey(index)
		if !ok {
			return false
		}
		if key == "" {
			f.errorf("%s[%s]: bad array subscript", name, subscriptText(index))
			f.status = 1
			return false
		}
		v := f.writable(sc, name)
		if appendTo {
			old, _ := v.assoc.get(key)
			if v.attrs&attrInteger != 0 {
				val = "(" + orZero(old) + ")+(" + val + ")"
			} else {
				val = old + val
			}
		}
		val, ok = f.convert(v, val)
		if !ok || !f.charge(int64(len(key)+len(val))) {
			return false
		}
		v.assoc.set(key, val)
		v.set = true
		return true
	}
	i, ok := f.arith(index)
	if !ok {
		return false
	}
	v := f.writable(sc, name)
	if v.idx == nil {
		v.attrs |= attrIndexed
		v.idx = &sparse{}
		if v.set {
			v.idx.set(0, v.str)
		}
		v.str = ""
	}
	if i < 0 {
		i += v.idx.next()
		if i < 0 {
			f.errorf("%s[%s]: bad array subscript", name, subscriptText(index))
			f.status = 1
			return false
		}
	}
	if appendTo {
		old, _ := v.idx.get(i)
		if v.attrs&attrInteger != 0 {
			val = "(" + orZero(old) + ")+(" + val + ")"
		} else {
			val = old + val
		}
	}
	val, ok = f.convert(v, val)
	if !ok || !f.charge(int64(len(val))) {
		return false
	}
	v.idx.set(i, val)
	v.set = true
	return true
}

// unsetVar removes a variable as unset does: a local of the current
// function stays local but unset; others are deleted, revealing the
// variable of an outer scope. Unsetting one of bash's dynamic variables
// takes its meaning away.
func (f *frame) unsetVar(name string) bool {
	name = f.resolveRef(name)
	if name == "GLOBIGNORE" {
		f.opts.put(optDotglob, false) // bash's other half of the rule
	}
	if name == "" {
		return true
	}
	if base, sub, ok := strings.Cut(name, "["); ok { // a nameref to an element
		return f.unsetElem(base, strings.TrimSuffix(sub, "]"))
	}
	for sc := f.vars; sc != nil; sc = sc.parent {
		v, ok := sc.vars[name]
		if !ok {
			continue
		}
		if v.attrs&attrReadonly != 0 {
			f.errorf("unset: %s: cannot unset: readonly variable", name)
			return false
		}
		f.call.sh.Budget.charge(-v.size())
		if sc == f.vars && sc.fn != "" {
			sc.put(name, &variable{gen: sc.gen})
		} else {
			sc.del(name)
		}
		return true
	}
	if d := f.dynVarOf(name); d != nil {
		if d.attrs&attrReadonly != 0 {
			f.errorf("unset: %s: cannot unset: readonly variable", name)
			return false
		}
		f.lostDyn |= d.bit
	}
	return true
}

// unsetElem is unset 'name[sub]': an element of an array, the whole
// array for an indexed array's @ or * (an associative array takes them
// as keys), element 0 of a scalar.
func (f *frame) unsetElem(name, sub string) bool {
	v := f.lookupVar(name)
	if v == nil {
		return true
	}
	if v.attrs&attrReadonly != 0 {
		f.errorf("unset: %s: cannot unset: readonly variable", name)
		return false
	}
	target := f.resolveRef(name)
	if strings.IndexByte(target, '[') >= 0 || target == "" {
		return true
	}
	sc := f.scopeFor(target)
	v = sc.owned(target)
	sub, ok := f.expandText(sub)
	if !ok {
		return false
	}
	switch {
	case v.assoc != nil:
		key := sub
		if key == "" {
			f.errorf("unset: [%s]: bad array subscript", sub)
			return false
		}
		if old, ok := v.assoc.get(key); ok {
			f.call.sh.Budget.charge(-int64(len(key) + len(old)))
		}
		v.assoc.unset(key)
	case sub == "@" || sub == "*":
		if v.idx != nil {
			f.call.sh.Budget.charge(-v.size())
			v.idx = &sparse{}
			return true
		}
		return f.unsetVar(target)
	case v.idx != nil:
		i, ok := f.arithString(sub)
		if !ok {
			return false
		}
		if i < 0 {
			i += v.idx.next()
			if i < 0 {
				f.errorf("unset: [%s]: bad array subscript", sub)
				return false
			}
		}
		if s, ok := v.idx.get(i); ok {
			f.call.sh.Budget.charge(-int64(len(s)))
		}
		v.idx.unset(i)
	default:
		if i, ok := f.arithString(sub); ok && (i == 0 || i == -1) {
			return f.unsetVar(target)
		}
	}
	return true
}

// environ lists the exported variables as NAME=VALUE, plus extra.
func (f *frame) environ(extra []string) []string {
	seen := map[string]bool{}
	var out []string
	for sc := f.vars; sc != nil; sc = sc.parent {
		for n, v := range sc.vars {
			if seen[n] {
				continue
			}
			seen[n] = true
			if v.attrs&attrExport != 0 && v.set && !v.isArray() {
				out = append(out, n+"="+v.str)
			}
		}
	}
	sort.Strings(out)
	out = append(out, f.exportedFuncs()...)
	return append(out, extra...)
}
