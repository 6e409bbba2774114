package interp

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

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

// dynVar is a variable bash computes when read. Unsetting one takes its
// meaning away for the rest of the shell (a plain variable may then take
// its name), as in bash.
type dynVar struct {
	bit   uint32
	attrs attr // as declare -p shows it
	get   func(f *frame) (string, bool)
	// set handles an assignment; nil ignores it, as bash does for
	// BASHPID, EPOCHSECONDS and the like.
	set func(f *frame, val string) bool
}

var dynVars = map[string]*dynVar{
	"RANDOM": {bit: 1 << 0, attrs: attrInteger, get: (*frame).randomValue, set: (*frame).seedRandom},
	"SRANDOM": {bit: 1 << 1, attrs: attrInteger, get: func(*frame) (string, bool) {
		return strconv.FormatUint(uint64(rand.Uint32()), 10), true
	}},
	"SECONDS": {bit: 1 << 2, attrs: attrInteger, get: func(f *frame) (string, bool) {
		return itoa64(nowUnix() - f.startSecs + f.seconds0), true
	}, set: func(f *frame, val string) bool {
		n, ok := f.arithString(val)
		if ok {
			f.seconds0, f.startSecs = n, nowUnix()
		}
		return ok
	}},
	"EPOCHSECONDS": {bit: 1 << 3, get: func(*frame) (string, bool) { return itoa64(nowUnix()), true }},
	"EPOCHREALTIME": {bit: 1 << 4, get: func(*frame) (string, bool) {
		t := time.Now()
		return strconv.FormatInt(t.Unix(), 10) + "." + padMicro(t.Nanosecond()/1000), true
	}},
	"LINENO":        {bit: 1 << 5, attrs: attrInteger, get: func(f *frame) (string, bool) { return itoa(f.lineno), true }},
	"BASHPID":       {bit: 1 << 6, attrs: attrInteger, get: func(f *frame) (string, bool) { return itoa(f.pid), true }},
	"BASH_SUBSHELL": {bit: 1 << 7, get: func(f *frame) (string, bool) { return itoa(f.subshell), true }},
	"PWD":           {bit: 1 << 8, get: func(f *frame) (string, bool) { return f.dir, true }},
	"OLDPWD":        {bit: 1 << 9, get: func(f *frame) (string, bool) { return f.oldDir, f.oldDir != "" }},
	"FUNCNAME": {bit: 1 << 10, attrs: attrIndexed, get: func(f *frame) (string, bool) {
		if len(f.funcNames) == 0 {
			return "", false
		}
		return f.callAt(0).name, true
	}},
	"BASH_SOURCE": {bit: 1 << 15, attrs: attrIndexed, get: func(f *frame) (string, bool) {
		v, _ := f.introArray("BASH_SOURCE")
		return v.idx.get(0)
	}},
	"BASH_LINENO": {bit: 1 << 16, attrs: attrIndexed, get: func(f *frame) (string, bool) {
		v, _ := f.introArray("BASH_LINENO")
		return v.idx.get(0)
	}},
	"BASH_COMMAND": {bit: 1 << 17, get: func(f *frame) (string, bool) { return f.bashCommand(), true }},
	"PIPESTATUS": {bit: 1 << 11, attrs: attrIndexed, get: func(f *frame) (string, bool) {
		return itoa(f.pipeStatusAt(0)), true
	}},
	"SHELLOPTS": {bit: 1 << 12, attrs: attrReadonly, get: func(f *frame) (string, bool) {
		var on []string
		for _, so := range setOptions {
			if so.bit != 0 && f.opts.has(so.bit) {
				on = append(on, so.name)
			}
		}
		return strings.Join(on, ":"), true
	}},
	"DIRSTACK": {bit: 1 << 14, attrs: attrIndexed, get: func(f *frame) (string, bool) {
		return f.dirStackAll()[0], true
	}},
	"BASHOPTS": {bit: 1 << 13, attrs: attrReadonly, get: func(f *frame) (string, bool) {
		var on []string
		for _, so := range shoptOptions {
			if so.bit != 0 && f.opts.has(so.bit) {
				on = append(on, so.name)
			}
		}
		return strings.Join(on, ":"), true
	}},
}

// dynVarOf returns the dynamic variable name still means, or nil.
func (f *frame) dynVarOf(name string) *dynVar {
	d := dynVars[name]
	if d == nil || f.lostDyn&d.bit != 0 {
		return nil
	}
	return d
}

// dynamic returns the variables bash computes when read.
func (f *frame) dynamic(name string) (string, bool, bool) {
	d := f.dynVarOf(name)
	if d == nil {
		return "", false, false
	}
	s, ok := d.get(f)
	return s, ok, true
}

func padMicro(n int) string {
	s := itoa(n)
	return strings.Repeat("0", 6-len(s)) + s
}

// dynamicArray returns the arrays bash computes (PIPESTATUS, FUNCNAME).
func (f *frame) dynamicArray(name string) (*variable, bool) {
	if f.dynVarOf(name) == nil {
		return nil, false
	}
	switch name {
	case "PIPESTATUS":
		v := &variable{attrs: attrIndexed, set: true, idx: &sparse{}}
		n := len(f.pipeStatus)
		if n == 0 {
			n = 1
		}
		for i := 0; i < n; i++ {
			v.idx.set(int64(i), itoa(f.pipeStatusAt(i)))
		}
		return v, true
	case "FUNCNAME", "BASH_SOURCE", "BASH_LINENO":
		return f.introArray(name)
	case "DIRSTACK":
		v := &variable{attrs: attrIndexed, set: true, idx: &sparse{}}
		for i, d := range f.dirStackAll() {
			v.idx.set(int64(i), d)
		}
		return v, true
	}
	return nil, false
}

// pipeStatusAt is ${PIPESTATUS[i]}: the statuses of the last pipeline,
// or of the last command when it was not a pipeline.
func (f *frame) pipeStatusAt(i int) int {
	if len(f.pipeStatus) == 0 {
		if i == 0 {
			return f.lastStatus
		}
		return 0
	}
	if i < len(f.pipeStatus) {
		return f.pipeStatus[i]
	}
	return 0
}

// commandDone records the status of a command that is not a pipeline of
// several (a simple command, a subshell, [[ ]], (( ))) as PIPESTATUS.
func (f *frame) commandDone() {
	f.pipeStatus = nil
	f.lastStatus = f.status
}

// rngState is bash 5.2's $RANDOM generator: Park and Miller's minimal
// standard generator, the two halves of its state folded into 15 bits,
// never the same number twice in a row. A subshell reseeds on its first
// use, as bash does.
type rngState struct {
	seed   uint32
	last   int
	reseed bool
}

func (r *rngState) next() int {
	x := r.seed
	if x == 0 {
		x = 123459876
	}
	h := int32(x / 127773)
	l := int32(x - 127773*uint32(h))
	t := 16807*l - 2836*h
	if t < 0 {
		t += 0x7fffffff
	}
	r.seed = uint32(t)
	return int((r.seed>>16)^(r.seed&0xffff)) & 0x7fff
}

func (f *frame) randomValue() (string, bool) {
	if f.rng.reseed {
		f.rng = rngState{seed: rand.Uint32()}
	}
	n := f.rng.next()
	for n == f.rng.last {
		n = f.rng.next()
	}
	f.rng.last = n
	return itoa(n), true
}

// seedRandom is RANDOM=N: the value is arithmetic, since RANDOM has the
// integer attribute.
func (f *frame) seedRandom(val string) bool {
	n, ok := f.arithString(val)
	if !ok {
		return false
	}
	f.rng = rngState{seed: uint32(n)}
	return true
}

// arithCommand evaluates the expression of (( )) or let: an error names
// the command and fails it without abandoning the line, as in bash.
func (f *frame) arithCommand(name string, x syntax.ArithmExpr) (int64, bool) {
	n, ok := f.arithAs(strings.TrimSuffix(name, ": "), x)
	if !ok && f.ctl == ctlAbort {
		f.ctl = ctlNone
		f.status = 1
	}
	return n, ok
}
