package interp

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
)

// attr is a variable's attribute set, as declare's flags name them.
type attr uint16

const (
	attrIndexed  attr = 1 << iota // -a
	attrAssoc                     // -A
	attrInteger                   // -i
	attrLower                     // -l
	attrUpper                     // -u
	attrNameref                   // -n
	attrReadonly                  // -r
	attrExport                    // -x
	attrTrace                     // -t
)

// attrFlags maps declare's flag letters to attributes, in the order
// declare -p prints them.
var attrFlags = []struct {
	c byte
	a attr
}{
	// bash's order, in declare -p and ${x@a}
	{'a', attrIndexed}, {'A', attrAssoc}, {'i', attrInteger}, {'n', attrNameref},
	{'r', attrReadonly}, {'t', attrTrace}, {'x', attrExport}, {'l', attrLower}, {'u', attrUpper},
}

// variable is one shell variable. Exactly one of str, idx, assoc holds the
// value, as the attributes say. A variable found in a scope with a
// different generation is shared with a forked frame and is cloned before
// it is written (see scope).
type variable struct {
	attrs attr
	set   bool // has a value: declare x gives an unset variable with attributes
	str   string
	idx   *sparse
	assoc *assocArray
	gen   uint64
	// sb holds str when it was built by appends (s+=x): appending then
	// writes after it instead of copying the whole value each time.
	// Valid only while sbLen == len(str) and nil after any other write.
	sb    *strings.Builder
	sbLen int
}

// appendStr appends to a scalar's value in amortized constant time.
func (v *variable) appendStr(val string) {
	if n := v.appendGrowth(len(val)); n > 0 {
		v.sb = &strings.Builder{}
		v.sb.Grow(n)
		v.sb.WriteString(v.str)
	}
	v.sb.WriteString(val)
	v.str = v.sb.String()
	v.sbLen = len(v.str)
}

// appendGrowth is the size of the buffer appending n bytes allocates, or
// 0 when the value's buffer has room. Large values grow by a quarter, so
// the spare room a value holds beyond its length stays small.
func (v *variable) appendGrowth(n int) int {
	need := len(v.str) + n
	if v.sb != nil && v.sbLen == len(v.str) && need <= v.sb.Cap() {
		return 0
	}
	if need < 1<<20 {
		return 2 * need
	}
	return need + need/4
}

func (v *variable) isArray() bool { return v.attrs&(attrIndexed|attrAssoc) != 0 }

func (v *variable) clone(gen uint64) *variable {
	c := *v
	c.gen = gen
	c.sb = nil // the builder stays with the original
	if v.idx != nil {
		c.idx = v.idx.clone()
	}
	if v.assoc != nil {
		c.assoc = v.assoc.clone()
	}
	return &c
}

// size is what the variable's value holds, for the memory budget.
func (v *variable) size() int64 {
	n := int64(len(v.str))
	if v.idx != nil {
		n += v.idx.bytes
	}
	if v.assoc != nil {
		n += v.assoc.bytes
	}
	return n
}

// value is the variable's value as $name gives it: element 0 for an
// indexed array, element "0" for an associative one.
func (v *variable) value() (string, bool) {
	switch {
	case v.idx != nil:
		return v.idx.get(0)
	case v.assoc != nil:
		return v.assoc.get("0")
	}
	return v.str, v.set
}

// sparse is an indexed array: sorted indexes with their values. The
// common dense case (indexes 0..n-1) is read by position.
type sparse struct {
	keys  []int64
	vals  []string
	bytes int64
}

func (s *sparse) clone() *sparse {
	return &sparse{keys: slices.Clone(s.keys), vals: slices.Clone(s.vals), bytes: s.bytes}
}

func (s *sparse) find(i int64) (int, bool) {
	n := len(s.keys)
	if n > 0 && s.keys[n-1] == int64(n-1) { // dense
		if i >= 0 && i < int64(n) {
			return int(i), true
		}
		if i < 0 {
			return 0, false
		}
		return n, false
	}
	return slices.BinarySearch(s.keys, i)
}

func (s *sparse) get(i int64) (string, bool) {
	if p, ok := s.find(i); ok {
		return s.vals[p], true
	}
	return "", false
}

// elemOverhead is what an element costs beside its text: its index and
// its string header, counted so a huge array of short strings is charged
// what it holds.
const elemOverhead = 24

func (s *sparse) set(i int64, val string) {
	p, ok := s.find(i)
	if ok {
		s.bytes += int64(len(val) - len(s.vals[p]))
		s.vals[p] = val
		return
	}
	s.bytes += int64(len(val)) + elemOverhead
	s.keys = slices.Insert(s.keys, p, i)
	s.vals = slices.Insert(s.vals, p, val)
}

func (s *sparse) unset(i int64) {
	if p, ok := s.find(i); ok {
		s.bytes -= int64(len(s.vals[p])) + elemOverhead
		s.keys = slices.Delete(s.keys, p, p+1)
		s.vals = slices.Delete(s.vals, p, p+1)
	}
}

// next is the index an append (a+=(x)) uses: one past the last.
func (s *sparse) next() int64 {
	if len(s.keys) == 0 {
		return 0
	}
	return s.keys[len(s.keys)-1] + 1
}

func (s *sparse) len() int { return len(s.keys) }

// assocArray is an associative array that lists its keys in bash's order.
// bash keeps them in a hash table (FNV-1 over the key's bytes taken as
// signed chars) of 1024 buckets, each bucket listing its newest key
// first; past two keys per bucket the table grows fourfold, and the
// rehash reverses each bucket's order. pos is a key's place in its
// bucket's list (higher first): the rehash negates every pos, and new
// keys take a pos above all others.
type assocArray struct {
	m        map[string]*assocEntry
	seq      int64
	nbuckets uint32
	bytes    int64
}

type assocEntry struct {
	val string
	pos int64
}

const assocBuckets = 1024

func newAssoc() *assocArray {
	return &assocArray{m: map[string]*assocEntry{}, nbuckets: assocBuckets}
}

func (a *assocArray) clone() *assocArray {
	c := &assocArray{m: make(map[string]*assocEntry, len(a.m)), seq: a.seq, nbuckets: a.nbuckets, bytes: a.bytes}
	for k, e := range a.m {
		e2 := *e
		c.m[k] = &e2
	}
	return c
}

func (a *assocArray) get(k string) (string, bool) {
	if e, ok := a.m[k]; ok {
		return e.val, true
	}
	return "", false
}

func (a *assocArray) set(k, val string) {
	if e, ok := a.m[k]; ok {
		a.bytes += int64(len(val) - len(e.val))
		e.val = val
		return
	}
	if a.nbuckets == 0 {
		a.nbuckets = assocBuckets
	}
	if uint64(len(a.m)) >= uint64(a.nbuckets)*2 {
		a.nbuckets *= 4
		for _, e := range a.m {
			e.pos = -e.pos
		}
	}
	a.seq++
	a.bytes += int64(len(k) + len(val))
	a.m[k] = &assocEntry{val: val, pos: a.seq}
}

func (a *assocArray) unset(k string) {
	if e, ok := a.m[k]; ok {
		a.bytes -= int64(len(k) + len(e.val))
		delete(a.m, k)
	}
}

// bashHash is bash's hash_string: FNV-1 over chars, which are signed on
// the platforms bash 5.2 is built for here (x86-64).
func bashHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(int32(int8(s[i])))
	}
	return h
}

// keys lists the keys in bash's order.
func (a *assocArray) keys() []string {
	mask := a.nbuckets - 1
	if a.nbuckets == 0 {
		mask = assocBuckets - 1
	}
	type ent struct {
		k   string
		b   uint32
		pos int64
	}
	es := make([]ent, 0, len(a.m))
	for k, e := range a.m {
		es = append(es, ent{k, bashHash(k) & mask, e.pos})
	}
	sort.Slice(es, func(i, j int) bool {
		if es[i].b != es[j].b {
			return es[i].b < es[j].b
		}
		return es[i].pos > es[j].pos
	})
	ks := make([]string, len(es))
	for i, e := range es {
		ks[i] = e.k
	}
	return ks
}

// scope is one level of variables: the global scope or a function's
// locals. gen marks the variables this scope owns outright; others are
// shared with a forked frame.
type scope struct {
	vars   map[string]*variable
	parent *scope
	gen    uint64
	fn     string // the function whose locals these are; "" for globals
	// opts are the set options to restore when the function returns
	// (local -)
	opts *options
	// hot remembers recent lookups of the scope's names (found or not),
	// valid while ver, which every change to vars bumps, is unchanged: a
	// loop reads the same few variables again and again. It is made once
	// the scope has been read a while, so a short-lived one (a
	// substitution's copy) does not pay for it. A scope is only ever used
	// by the goroutine running its frames (fork copies the chain), so the
	// cache needs no lock.
	hot   *[hotSlots]hotVar
	ver   uint64
	reads uint32
}

type hotVar struct {
	name string
	v    *variable
	ver  uint64
}

const (
	hotSlots = 8
	hotAfter = 256 // reads before a scope gets its cache
)

// get is sc.vars[name] through the hot cache.
func (sc *scope) get(name string) *variable {
	if sc.hot == nil {
		if sc.reads++; sc.reads < hotAfter {
			return sc.vars[name]
		}
		sc.hot = new([hotSlots]hotVar)
	}
	if name == "" {
		return sc.vars[name]
	}
	h := &sc.hot[(len(name)+int(name[0])+int(name[len(name)-1]))%hotSlots]
	if h.ver == sc.ver && h.name == name {
		return h.v
	}
	v := sc.vars[name]
	*h = hotVar{name: name, v: v, ver: sc.ver}
	return v
}

// put stores v as the variable name; del removes it. Every change to a
// scope's map goes through them, so the hot cache sees it.
func (sc *scope) put(name string, v *variable) {
	sc.ver++
	sc.vars[name] = v
}

func (sc *scope) del(name string) {
	sc.ver++
	delete(sc.vars, name)
}

var generations atomic.Uint64

func newGen() uint64 { return generations.Add(1) }

// fork copies the scope chain for a subshell: the copy owns none of the
// variables, so that writing one clones it first. shared says the parent
// goes on running alongside the copy (a background job): then the parent
// gives up ownership too.
func (sc *scope) fork(shared bool) *scope {
	if sc == nil {
		return nil
	}
	c := &scope{vars: make(map[string]*variable, len(sc.vars)), parent: sc.parent.fork(shared), gen: newGen(), fn: sc.fn}
	for k, v := range sc.vars {
		c.vars[k] = v
	}
	if shared {
		sc.gen = newGen()
	}
	return c
}

// owned returns the variable stored under name in sc, ready to be written.
func (sc *scope) owned(name string) *variable {
	v := sc.vars[name]
	if v != nil && v.gen != sc.gen {
		v = v.clone(sc.gen)
		sc.put(name, v)
	}
	return v
}

// parseIndex parses an array index as bash does for literal digits; other
// text goes through arithmetic by the caller.
func parseIndex(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
