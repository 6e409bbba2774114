package interp

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assignment runs one NAME=value, NAME+=value, NAME[i]=value or
// NAME=(...) of an assignment statement. A failure (a readonly variable,
// a bad subscript) abandons the command line, as in bash.
func (f *frame) assignment(as *syntax.Assign, _ bool) bool {
	ok := f.assignment1(as)
	if !ok && f.ctl == ctlNone {
		if f.status == 0 {
			f.status = 1
		}
		f.abort()
	}
	return ok
}

func (f *frame) assignment1(as *syntax.Assign) bool {
	name := as.Name.Value
	if as.Array != nil {
		return f.assignArray(name, as.Array, as.Append, false)
	}
	val, ok := f.assignValue(as.Value)
	if !ok {
		return false
	}
	if as.Index != nil {
		return f.assignIndex(name, as.Index, val, as.Append)
	}
	return f.assign(name, val, as.Append)
}

// arrayTarget resolves the variable NAME=(...) writes, checking that it
// may be written; nil after printing bash's message.
func (f *frame) arrayTarget(name string) (string, *scope) {
	name = f.resolveRef(name)
	if name == "" {
		f.status = 1
		return "", nil
	}
	if strings.IndexByte(name, '[') >= 0 {
		f.errorf("%s: cannot assign list to array member", name)
		f.status = 1
		return "", nil
	}
	sc := f.scopeFor(name)
	if v := sc.vars[name]; v != nil && v.attrs&attrReadonly != 0 {
		f.errorf("%s: readonly variable", name)
		f.status = 1
		return "", nil
	}
	return name, sc
}

// assignArray runs NAME=(...) and NAME+=(...). assoc forces an
// associative array (declare -A). Every element is expanded before the
// array changes, so a=("${a[@]}") and q=("${q[@]:1}") read the old one.
func (f *frame) assignArray(name string, arr *syntax.ArrayExpr, appendTo, assoc bool) bool {
	return f.assignArrayIn(nil, name, arr, appendTo, assoc)
}

// assignArrayIn is assignArray in scope in (nil: where the variable
// lives, else the global scope).
func (f *frame) assignArrayIn(in *scope, name string, arr *syntax.ArrayExpr, appendTo, assoc bool) bool {
	name, sc := f.arrayTarget(name)
	if sc == nil {
		return false
	}
	if in != nil {
		sc = in
		if v := sc.vars[name]; v != nil && v.attrs&attrReadonly != 0 {
			f.errorf("%s: readonly variable", name)
			f.status = 1
			return false
		}
	}
	cur := sc.vars[name]
	if assoc || cur != nil && cur.assoc != nil {
		return f.fillAssoc(name, sc, arr, appendTo)
	}
	type elem struct {
		i   int64
		val string
	}
	var elems []elem
	var next int64
	if appendTo && cur != nil {
		switch {
		case cur.idx != nil:
			next = cur.idx.next()
		case cur.set:
			next = 1
		}
	}
	for _, el := range arr.Elems {
		if el.Index != nil {
			i, ok := f.arith(el.Index)
			if !ok {
				return false
			}
			if i < 0 {
				i += next
				if i < 0 || !appendTo {
					val := ""
					if el.Value != nil {
						val = wordText(el.Value)
					}
					f.errorf("[%s]=%s: bad array subscript", subscriptText(el.Index), val)
					f.status = 1
					continue
				}
			}
			val, ok := f.literal(el.Value)
			if !ok {
				return false
			}
			elems = append(elems, elem{i, val})
			next = i + 1
			continue
		}
		vals, ok := f.elemFields(el.Value)
		if !ok || f.ctl != ctlNone {
			return false
		}
		for _, s := range vals {
			elems = append(elems, elem{next, s})
			next++
		}
	}
	v := f.writable(sc, name)
	old := v.size()
	if !appendTo || v.idx == nil {
		first, had := v.str, v.set && v.idx == nil
		v.attrs |= attrIndexed
		v.idx = &sparse{}
		v.str, v.sb = "", nil
		if appendTo && had {
			v.idx.set(0, first)
		}
	}
	for _, e := range elems {
		s, ok := f.convert(v, e.val)
		if !ok {
			return false
		}
		v.idx.set(e.i, s)
	}
	v.set = true
	return f.charge(v.size() - old)
}

// fillAssoc runs NAME=(...) for an associative array: [key]=value
// elements, or (bash 5.1+) a list of keys and values.
func (f *frame) fillAssoc(name string, sc *scope, arr *syntax.ArrayExpr, appendTo bool) bool {
	var kv []string // key value key value ...
	listForm := len(arr.Elems) > 0 && arr.Elems[0].Index == nil
	for _, el := range arr.Elems {
		if listForm {
			var vals []string
			var ok bool
			if el.Index != nil {
				// [k]=v inside the list form is a plain word
				var t string
				t, ok = f.literal(el.Value)
				vals = []string{"[" + subscriptText(el.Index) + "]=" + t}
			} else {
				vals, ok = f.elemFields(el.Value)
			}
			if !ok || f.ctl != ctlNone {
				return false
			}
			kv = append(kv, vals...)
			continue
		}
		if el.Index == nil {
			w, ok := f.literal(el.Value)
			if !ok {
				return false
			}
			f.errorf("%s: '%s': must use subscript when assigning associative array", name, w)
			continue
		}
		key, ok := f.assocKey(el.Index)
		if !ok {
			return false
		}
		val, ok := f.literal(el.Value)
		if !ok {
			return false
		}
		if key == "" {
			f.errorf("%s: [%s]: bad array subscript", name, subscriptText(el.Index))
			f.status = 1
			continue
		}
		kv = append(kv, key, val)
	}
	if len(kv)%2 == 1 {
		kv = append(kv, "")
	}
	v := f.writable(sc, name)
	old := v.size()
	if !appendTo || v.assoc == nil {
		first, had := v.str, v.set && v.assoc == nil && v.idx == nil
		v.attrs = v.attrs&^attrIndexed | attrAssoc
		v.assoc = newAssoc()
		v.idx, v.str, v.sb = nil, "", nil
		if appendTo && had {
			v.assoc.set("0", first)
		}
	}
	for i := 0; i < len(kv); i += 2 {
		s, ok := f.convert(v, kv[i+1])
		if !ok {
			return false
		}
		v.assoc.set(kv[i], s)
	}
	v.set = true
	return f.charge(v.size() - old)
}

// abort abandons the current top-level command after a fatal error, as a
// non-interactive bash does.
func (f *frame) abort() {
	if f.ctl == ctlNone {
		f.ctl = ctlAbort
		if f.status == 0 {
			f.status = 1
		}
	}
}

// fatal ends the shell with status, as unbound variables under set -u and
// ${x?} do; a subshell ends with status 1 instead, as in bash.
func (f *frame) fatal(status int) {
	f.ctl = ctlExit
	f.status = status
	if f.subshell > 0 || f.fileScript() {
		// a subshell and a script file end with 1, bash -c with 127
		f.status = 1
	}
}

// splitAssignText splits "name=value", "name+=value" and "name[i]=value"
// given as text (declare's expanded arguments).
func splitAssignText(s string) (name, index, value string, appendTo, hasValue bool) {
	eq := strings.IndexByte(s, '=')
	lhs := s
	if eq >= 0 {
		lhs, value, hasValue = s[:eq], s[eq+1:], true
	}
	if strings.HasSuffix(lhs, "+") && hasValue {
		lhs, appendTo = lhs[:len(lhs)-1], true
	}
	if i := strings.IndexByte(lhs, '['); i > 0 && strings.HasSuffix(lhs, "]") {
		return lhs[:i], lhs[i+1 : len(lhs)-1], value, appendTo, hasValue
	}
	return lhs, "", value, appendTo, hasValue
}

// isAssignOnly says whether cmd is assignments without a command name.
func isAssignOnly(cmd syntax.Command) bool {
	c, ok := cmd.(*syntax.CallExpr)
	return ok && len(c.Args) == 0 && len(c.Assigns) > 0
}
