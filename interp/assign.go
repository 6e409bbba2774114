package interp

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assignment runs one NAME=value, NAME+=value, NAME[i]=value or
// NAME=(...) of a command or declaration.
func (f *frame) assignment(as *syntax.Assign, _ bool) bool {
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

// assignArray runs NAME=(...) and NAME+=(...). assoc forces an
// associative array (declare -A).
func (f *frame) assignArray(name string, arr *syntax.ArrayExpr, appendTo, assoc bool) bool {
	name = f.resolveRef(name)
	sc := f.scopeFor(name)
	v := f.writable(sc, name)
	if v == nil {
		f.status = 1
		f.abort()
		return false
	}
	if assoc && v.assoc == nil {
		v.attrs = v.attrs&^attrIndexed | attrAssoc
		v.assoc = newAssoc()
		v.idx = nil
	}
	if v.assoc != nil {
		return f.fillAssoc(name, v, arr, appendTo)
	}
	old := v.size()
	if !appendTo || v.idx == nil {
		first := v.str
		had := v.set && v.idx == nil
		v.attrs |= attrIndexed
		v.idx = &sparse{}
		v.str = ""
		if appendTo && had {
			v.idx.set(0, first)
		}
	}
	next := v.idx.next()
	for _, el := range arr.Elems {
		if el.Index != nil {
			i, ok := f.arith(el.Index)
			if !ok {
				return false
			}
			if i < 0 {
				i += v.idx.next()
			}
			val, ok := f.literal(el.Value)
			if !ok {
				return false
			}
			if val, ok = f.convert(v, val); !ok {
				return false
			}
			v.idx.set(i, val)
			next = i + 1
			continue
		}
		vals, ok := f.elemFields(el.Value)
		if !ok {
			return false
		}
		for _, s := range vals {
			if s, ok = f.convert(v, s); !ok {
				return false
			}
			v.idx.set(next, s)
			next++
		}
		if f.ctl != ctlNone {
			return false
		}
	}
	v.set = true
	return f.charge(v.size() - old)
}

func (f *frame) fillAssoc(name string, v *variable, arr *syntax.ArrayExpr, appendTo bool) bool {
	old := v.size()
	if !appendTo {
		v.assoc = newAssoc()
	}
	var pending []string // key value key value ... (bash 5.1+ list form)
	for _, el := range arr.Elems {
		if el.Index == nil {
			vals, ok := f.elemFields(el.Value)
			if !ok {
				return false
			}
			pending = append(pending, vals...)
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
		if val, ok = f.convert(v, val); !ok {
			return false
		}
		v.assoc.set(key, val)
	}
	for i := 0; i < len(pending); i += 2 {
		val := ""
		if i+1 < len(pending) {
			val = pending[i+1]
		}
		v.assoc.set(pending[i], val)
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
	if f.subshell > 0 {
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
