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
	for name, val := range nativeShellVars {
		f.global.vars[name] = &variable{set: true, str: val, gen: f.global.gen}
	}
	for _, name := range []string{"UID", "EUID", "PPID"} {
		f.global.vars[name].attrs |= attrReadonly | attrInteger
	}
	for _, kv := range env {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || !syntax.ValidName(name) {
			continue
		}
		f.global.vars[name] = &variable{set: true, str: val, attrs: attrExport, gen: f.global.gen}
	}
	if _, ok := f.global.vars["IFS"]; !ok {
		f.global.vars["IFS"] = &variable{set: true, str: " \t\n", gen: f.global.gen}
	}
	// bash exports PWD from its start, set to where it starts (an
	// inherited PWD naming another directory, as after env -C, is
	// replaced), and OLDPWD too once cd sets it (declared exported but
	// unset until then).
	f.global.vars["PWD"] = &variable{set: true, str: f.dir, attrs: attrExport, gen: f.global.gen}
	if _, ok := f.global.vars["OLDPWD"]; !ok {
		f.global.vars["OLDPWD"] = &variable{attrs: attrExport, gen: f.global.gen}
	}
	ver := &variable{attrs: attrIndexed | attrReadonly, set: true, idx: &sparse{}, gen: f.global.gen}
	for i, s := range []string{"5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"} {
		ver.idx.set(int64(i), s)
	}
	f.global.vars["BASH_VERSINFO"] = ver
}

// nativeShellVars are bash's unexported variables a script sees.
var nativeShellVars = map[string]string{
	"UID": "1000", "EUID": "1000", "PPID": "1",
	"BASH_VERSION": "5.2.15(1)-release", "HOSTNAME": "bashbox", "OSTYPE": "linux-gnu",
	"MACHTYPE": "x86_64-pc-linux-gnu", "HOSTTYPE": "x86_64", "BASH": "/bin/bash",
	"PS4": "+ ", "OPTIND": "1", "SHLVL": "1", "OPTERR": "1",
}

// lookupRaw finds a variable without following namerefs.
func (f *frame) lookupRaw(name string) *variable {
	for sc := f.vars; sc != nil; sc = sc.parent {
		if v, ok := sc.vars[name]; ok {
			return v
		}
	}
	return nil
}

// resolveRef follows namerefs from name to the variable's real name.
func (f *frame) resolveRef(name string) string {
	for i := 0; i < 16; i++ {
		v := f.lookupRaw(name)
		if v == nil || v.attrs&attrNameref == 0 || !v.set || v.str == "" {
			return name
		}
		target, _, _ := strings.Cut(v.str, "[")
		if target == name {
			return name
		}
		name = target
	}
	return name
}

// lookupVar finds a variable, following namerefs.
func (f *frame) lookupVar(name string) *variable {
	v := f.lookupRaw(name)
	if v != nil && v.attrs&attrNameref != 0 && v.set {
		return f.lookupRaw(f.resolveRef(name))
	}
	return v
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
	v := f.lookupVar(name)
	if v == nil {
		if s, ok, dyn := f.dynamic(name); dyn {
			return s, ok
		}
		return "", false
	}
	if v.attrs&attrNameref != 0 && v.set && f.lookupRaw(f.resolveRef(name)) == nil {
		return "", false
	}
	return v.value()
}

// special returns $?, $#, $1 and the other one-character parameters.
func (f *frame) special(name string) (string, bool, bool) {
	if name == "" {
		return "", false, false
	}
	switch name {
	case "?":
		return itoa(f.status), true, true
	case "#":
		return itoa(len(f.params)), true, true
	case "$":
		return itoa(f.shellPID), true, true
	case "!":
		if f.lastBg == 0 {
			return "", false, true
		}
		return itoa(f.lastBg), true, true
	case "-":
		return f.opts.flags(), true, true
	case "0":
		return f.arg0, true, true
	case "_":
		return f.lastArg, true, true
	case "@", "*":
		return strings.Join(f.params, " "), len(f.params) > 0, true
	}
	if name[0] >= '0' && name[0] <= '9' {
		n, err := strconv.Atoi(name)
		if err != nil {
			return "", false, true
		}
		if n == 0 {
			return f.arg0, true, true
		}
		if n <= len(f.params) {
			return f.params[n-1], true, true
		}
		return "", false, true
	}
	return "", false, false
}

// dynamic returns the variables bash computes when read.
func (f *frame) dynamic(name string) (string, bool, bool) {
	switch name {
	case "RANDOM":
		*f.random = *f.random*1103515245 + 12345
		return itoa(int((*f.random >> 16) & 0x7fff)), true, true
	case "SECONDS":
		return itoa64(nowUnix() - f.startSecs + f.seconds0), true, true
	case "EPOCHSECONDS":
		return itoa64(nowUnix()), true, true
	case "EPOCHREALTIME":
		t := time.Now()
		return strconv.FormatInt(t.Unix(), 10) + "." + padMicro(t.Nanosecond()/1000), true, true
	case "LINENO":
		return itoa(f.lineno), true, true
	case "BASHPID":
		return itoa(f.pid), true, true
	case "BASH_SUBSHELL":
		return itoa(f.subshell), true, true
	case "PWD":
		return f.dir, true, true
	case "OLDPWD":
		return f.oldDir, f.oldDir != "", true
	case "FUNCNAME":
		if len(f.funcNames) == 0 {
			return "", false, true
		}
		return f.funcNames[0], true, true
	case "PIPESTATUS":
		if len(f.pipeStatus) == 0 {
			return itoa(f.status), true, true
		}
		return itoa(f.pipeStatus[0]), true, true
	case "SHELLOPTS":
		var on []string
		for _, so := range setOptions {
			if so.bit != 0 && f.opts.has(so.bit) {
				on = append(on, so.name)
			}
		}
		return strings.Join(on, ":"), true, true
	case "BASHOPTS":
		var on []string
		for _, so := range shoptOptions {
			if so.bit != 0 && f.opts.has(so.bit) {
				on = append(on, so.name)
			}
		}
		return strings.Join(on, ":"), true, true
	}
	return "", false, false
}

func padMicro(n int) string {
	s := itoa(n)
	return strings.Repeat("0", 6-len(s)) + s
}

// dynamicArray returns the arrays bash computes (PIPESTATUS, FUNCNAME).
func (f *frame) dynamicArray(name string) (*variable, bool) {
	switch name {
	case "PIPESTATUS":
		v := &variable{attrs: attrIndexed, set: true, idx: &sparse{}}
		ps := f.pipeStatus
		if len(ps) == 0 {
			ps = []int{f.status}
		}
		for i, s := range ps {
			v.idx.set(int64(i), itoa(s))
		}
		return v, true
	case "FUNCNAME":
		if len(f.funcNames) == 0 {
			return nil, false
		}
		v := &variable{attrs: attrIndexed, set: true, idx: &sparse{}}
		for i, s := range f.funcNames {
			v.idx.set(int64(i), s)
		}
		v.idx.set(int64(len(f.funcNames)), "main")
		return v, true
	}
	return nil, false
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
		sc.vars[name] = v
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
		n, ok := f.arithString(val)
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

// assignScalar sets name=val where a plain assignment would.
func (f *frame) assignScalar(name, val string) bool {
	return f.assign(name, val, false)
}

// assign sets name=val (or appends, +=). A readonly variable or a bad
// value aborts the command, as in bash.
func (f *frame) assign(name, val string, appendTo bool) bool {
	name = f.resolveRef(name)
	if target, sub, ok := strings.Cut(name, "["); ok { // a nameref to an element
		return f.assignIndex(target, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: strings.TrimSuffix(sub, "]")}}}, val, appendTo)
	}
	switch name {
	case "SECONDS":
		n, _ := parseDecimal(val)
		f.seconds0, f.startSecs = n, nowUnix()
	case "RANDOM":
		n, _ := parseDecimal(val)
		*f.random = uint32(n)
		return true
	case "PWD":
	case "OPTIND":
		f.getoptsPos = 0
	}
	v := f.writable(f.scopeFor(name), name)
	if v == nil {
		f.status = 1
		f.abort()
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
		f.charge(int64(len(val)))
		v.idx.set(0, val)
		v.set = true
		return true
	case v.assoc != nil:
		if appendTo {
			old, _ := v.assoc.get("0")
			val = old + val
		}
		v.assoc.set("0", val)
		v.set = true
		return true
	}
	if appendTo && v.set {
		// appendStr may move the value into a builder of twice its
		// size: that must fit beside what is held, not only the bytes
		// appended.
		if regrow := v.appendGrowth(len(val)); regrow > 0 && !f.call.sh.Budget.fits(regrow) {
			f.ctl, f.status = ctlExit, 125
			return false
		}
		if !f.charge(int64(len(val))) {
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

// assignIndex sets name[index]=val.
func (f *frame) assignIndex(name string, index syntax.ArithmExpr, val string, appendTo bool) bool {
	name = f.resolveRef(name)
	v := f.writable(f.scopeFor(name), name)
	if v == nil {
		f.status = 1
		f.abort()
		return false
	}
	if v.assoc != nil {
		key, ok := f.assocKey(index)
		if !ok {
			return false
		}
		if appendTo {
			old, _ := v.assoc.get(key)
			val = old + val
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
			f.errorf("%s[%s]: bad array subscript", name, arithText(index))
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
// variable of an outer scope.
func (f *frame) unsetVar(name string) bool {
	name = f.resolveRef(name)
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
			sc.vars[name] = &variable{gen: sc.gen}
		} else {
			delete(sc.vars, name)
		}
		return true
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
	return append(out, extra...)
}
