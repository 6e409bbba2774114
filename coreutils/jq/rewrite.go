package jq

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"
)

// jq keeps the insertion order of object keys; gojq's objects are Go
// maps. Rather than evaluate filters ourselves, the parsed filter is
// rewritten before compiling so that each operation that builds or walks
// an object goes through a function that knows the order (keyOrder):
//
//   - `a + b` and `a * b` call __bb_add and __bb_mul, which merge objects
//     in order (and compute other types the way gojq does);
//   - assignments (=, |=, +=, ...), setpath and delpaths are followed by
//     __bb_inherit, which gives each object they made the order of the
//     object it replaced, new keys last;
//   - object constructions with computed keys, or whose keys another
//     construction lists in another order, end in __bb_order;
//   - iteration (.[], and so .., paths, map, to_entries, ...) goes through
//     __bb_each, which visits an object's keys in order;
//   - the elements of array constructions pass through __bb_elem, and
//     the states of reduce and foreach through __bb_state, which charge
//     them to the memory budget (see memory.go);
//   - builtins gojq defines over its own (sorted) iteration are redefined
//     in jq over the rewritten operations (orderedDefs).
//
// Names beginning with __bb are ours; a filter cannot reach them
// meaningfully, as jq has no such builtins.

// orderedDefs are jq 1.6's definitions of the builtins that build or walk
// objects, redefined over the rewritten operations; they are rewritten
// like the user's filter.
const orderedDefs = `def to_entries: __bb_to_entries; def keys_unsorted: __bb_keys_unsorted; ` +
	`def tojson: __bb_tojson; def tostring: if type == "string" then . else __bb_tojson end; ` +
	`def add: __bb_addall; def fromjson: __bb_fromjson; ` +
	`def recurse: recurse(.[]?); def map(f): [.[] | f]; def map_values(f): .[] |= f; ` +
	`def from_entries: map({(.key // .k // .name // .Name // .K // .Key | if type == "string" then . else tojson end): (if has("value") then .value else .v end)}) | add + {} // {}; ` +
	`def with_entries(f): to_entries | map(f) | from_entries; ` +
	`def paths: path(..) | select(length > 0); ` +
	`def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter); ` +
	`def leaf_paths: paths(scalars); ` +
	`def walk(f): . as $in | if type == "object" then reduce keys_unsorted[] as $key ({}; . + {($key): ($in[$key] | walk(f))}) | f ` +
	`elif type == "array" then map(walk(f)) | f else f end; ` +
	`def del(f): delpaths([path(f)]); ` +
	`def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]); ` +
	`def fromstream(f): { x: null, e: false } as $init | foreach f as $i ($init; if .e then $init else . end | ` +
	`if $i | length == 2 then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1]) ` +
	`else setpath(["e"]; $i[0] | length == 1) end; if .e then .x else empty end); ` +
	`def any: reduce .[] as $x (false; . or $x); def all: reduce .[] as $x (true; . and $x); ` +
	`def any(f): reduce (.[] | f) as $x (false; . or $x); def all(f): reduce (.[] | f) as $x (true; . and $x); ` +
	// jq 1.6 builtins gojq lacks.
	`def recurse_down: recurse; def isvalid(f): try (f | true) catch false; ` +
	`def pow10: pow(10; .); def dateadd(u; n): . + n; def datesub(u; n): . - n; def date: todate; ` +
	`def ltrimstr($x): if type == "string" and ($x | type) == "string" and startswith($x) then .[($x | length):] else . end; ` +
	`def rtrimstr($x): if type == "string" and ($x | type) == "string" and endswith($x) and ($x | length) > 0 then .[:length - ($x | length)] else . end; ` +
	`def limit($n; f): if $n < 0 then f else label $__bb_out | foreach f as $item (0; . + 1; $item, if . >= $n then break $__bb_out else empty end) end; ` +
	`def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime; def fromdate: fromdateiso8601; ` +
	`def input_line_number: __bb_input_line_number; ` +
	`def input_filename: __bb_input_filename; def debug: __bb_debug; def stderr: __bb_stderr; .`

// eachDef iterates in key order; it is added after the rewrite, since its
// own .[] must stay gojq's.
const eachDef = `def __bb_each: if type == "object" then __bb_keys_unsorted[] as $__bb_k | .[$__bb_k] else .[] end; .`

// orderRewriter rewrites a parsed filter (see above).
type orderRewriter struct {
	order    *keyOrder
	n        int // fresh variable names
	states   int // reduce and foreach sites
	sites    int // reduces updating in place
	userDefs map[string]bool
}

func (r *orderRewriter) fresh() string {
	r.n++
	return "$__bb_" + strconv.Itoa(r.n)
}

func funcTerm(name string, args ...*gojq.Query) *gojq.Term {
	return &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: name, Args: args}}
}

func termQuery(t *gojq.Term) *gojq.Query { return &gojq.Query{Term: t} }

func pipe(l, r *gojq.Query) *gojq.Query {
	return &gojq.Query{Left: l, Op: gojq.OpPipe, Right: r}
}

// bind is `l as $name | r`.
func bind(l *gojq.Query, name string, r *gojq.Query) *gojq.Query {
	return &gojq.Query{Left: l, Op: gojq.OpPipe, Right: r, Patterns: []*gojq.Pattern{{Name: name}}}
}

func identity() *gojq.Query { return termQuery(&gojq.Term{Type: gojq.TermTypeIdentity}) }

func variable(name string) *gojq.Query { return termQuery(funcTerm(name)) }

// wrapInherit is `. as $o | (q) | __bb_inherit($o)`.
func (r *orderRewriter) wrapInherit(q *gojq.Query) *gojq.Query {
	v := r.fresh()
	inner := termQuery(&gojq.Term{Type: gojq.TermTypeQuery, Query: q})
	return bind(identity(), v, pipe(inner, termQuery(funcTerm("__bb_inherit", variable(v)))))
}

func (r *orderRewriter) query(q *gojq.Query) {
	if q == nil {
		return
	}
	for _, fd := range q.FuncDefs {
		r.query(fd.Body)
	}
	if q.Term != nil {
		r.term(q.Term)
		return
	}
	r.query(q.Left)
	r.query(q.Right)
	for _, p := range q.Patterns {
		r.pattern(p)
	}
	switch q.Op {
	case gojq.OpAdd, gojq.OpMul:
		name := "__bb_add"
		if q.Op == gojq.OpMul {
			name = "__bb_mul"
		}
		*q = gojq.Query{Term: funcTerm(name, q.Left, q.Right)}
	case gojq.OpAssign, gojq.OpModify, gojq.OpUpdateAdd, gojq.OpUpdateSub, gojq.OpUpdateMul,
		gojq.OpUpdateDiv, gojq.OpUpdateMod, gojq.OpUpdateAlt:
		c := *q
		*q = *r.wrapInherit(&c)
	}
}

func (r *orderRewriter) pattern(p *gojq.Pattern) {
	for _, e := range p.Array {
		r.pattern(e)
	}
	for _, kv := range p.Object {
		r.str(kv.KeyString)
		r.query(kv.KeyQuery)
		if kv.Val != nil {
			r.pattern(kv.Val)
		}
	}
}

func (r *orderRewriter) str(s *gojq.String) {
	if s != nil {
		for _, q := range s.Queries {
			r.query(q)
		}
	}
}

func (r *orderRewriter) index(x *gojq.Index) {
	if x != nil {
		r.str(x.Str)
		r.query(x.Start)
		r.query(x.End)
	}
}

func (r *orderRewriter) term(t *gojq.Term) {
	r.index(t.Index)
	for _, s := range t.SuffixList {
		r.index(s.Index)
	}
	r.str(t.Str)
	if t.Func != nil {
		for _, a := range t.Func.Args {
			r.query(a)
		}
	}
	if t.Array != nil && t.Array.Query != nil {
		r.query(t.Array.Query)
		// Each element is charged to the memory budget as it is added.
		t.Array.Query = pipe(t.Array.Query, termQuery(funcTerm("__bb_elem")))
	}
	if t.Unary != nil {
		r.term(t.Unary.Term)
	}
	if x := t.If; x != nil {
		r.query(x.Cond)
		r.query(x.Then)
		for _, e := range x.Elif {
			r.query(e.Cond)
			r.query(e.Then)
		}
		r.query(x.Else)
	}
	if x := t.Try; x != nil {
		r.query(x.Body)
		r.query(x.Catch)
		if x.Catch != nil {
			// catch sees gojq's message: give it jq's.
			x.Catch = pipe(termQuery(funcTerm("__bb_errmsg")), x.Catch)
		}
	}
	site := -1 // a reduce updating in place (see inplace_rewrite.go)
	if x := t.Reduce; x != nil {
		r.loop(x.Query, x.Patterns, x.Start, nil, nil)
		if u := r.inPlace(x.Update, r.sites, r.measured); u != nil {
			site = r.sites
			r.sites++
			x.Update = u
			x.Start = pipe(x.Start, termQuery(funcTerm("__bb_begin", numberQuery(site))))
		} else {
			r.query(x.Update)
			x.Update = r.measured(x.Update)
		}
	}
	if x := t.Foreach; x != nil {
		r.loop(x.Query, x.Patterns, x.Start, x.Update, x.Extract)
		x.Update = r.measured(x.Update)
	}
	if t.Label != nil {
		r.query(t.Label.Body)
	}
	r.query(t.Query)
	if t.Object != nil {
		for _, kv := range t.Object.KeyVals {
			r.str(kv.KeyString)
			r.query(kv.KeyQuery)
			r.query(kv.Val)
		}
	}

	// Now this term itself.
	if t.Type == gojq.TermTypeFunc {
		switch {
		case t.Func.Name == "setpath" && len(t.Func.Args) == 2,
			t.Func.Name == "delpaths" && len(t.Func.Args) == 1:
			c := *t
			c.SuffixList = nil
			q := r.wrapInherit(termQuery(&c))
			*t = gojq.Term{Type: gojq.TermTypeQuery, Query: q, SuffixList: t.SuffixList}
		}
	}
	if t.Type == gojq.TermTypeObject {
		r.object(t)
	}
	if site >= 0 {
		c := *t
		c.SuffixList = nil
		q := pipe(termQuery(&c), termQuery(funcTerm("__bb_end", numberQuery(site))))
		*t = gojq.Term{Type: gojq.TermTypeQuery, Query: q, SuffixList: t.SuffixList}
	}
	r.splitIter(t)
}

// loop rewrites the parts of a reduce or foreach.
func (r *orderRewriter) loop(src *gojq.Query, patterns []*gojq.Pattern, start, update, extract *gojq.Query) {
	r.query(src)
	for _, p := range patterns {
		r.pattern(p)
	}
	r.query(start)
	r.query(update)
	r.query(extract)
}

// measured is `q | __bb_state(N)`, N numbering the reduce or foreach
// whose update q is: its state is charged to the memory budget as it
// grows (see memory.go).
func (r *orderRewriter) measured(q *gojq.Query) *gojq.Query {
	site := termQuery(&gojq.Term{Type: gojq.TermTypeNumber, Number: strconv.Itoa(r.states)})
	r.states++
	return pipe(q, termQuery(funcTerm("__bb_state", site)))
}

// splitIter turns `X[]rest` into `(X | __bb_each)rest`.
func (r *orderRewriter) splitIter(t *gojq.Term) {
	for i, s := range t.SuffixList {
		if !s.Iter {
			continue
		}
		inner := *t
		inner.SuffixList = t.SuffixList[:i:i]
		rest := t.SuffixList[i+1:]
		q := pipe(termQuery(&inner), termQuery(funcTerm("__bb_each")))
		*t = gojq.Term{Type: gojq.TermTypeQuery, Query: q, SuffixList: rest}
		r.splitIter(t)
		return
	}
}

// object makes a construction record its key order when the order cannot
// be known from the filter's text alone.
func (r *orderRewriter) object(t *gojq.Term) {
	kvs := t.Object.KeyVals
	if len(kvs) < 2 {
		return
	}
	var static []string
	dynamic := false
	for _, kv := range kvs {
		switch {
		case kv.Key != "" && kv.Key[0] == '$':
			static = append(static, kv.Key[1:])
		case kv.Key != "":
			static = append(static, kv.Key)
		case kv.KeyString != nil && len(kv.KeyString.Queries) == 0:
			static = append(static, kv.KeyString.Str)
		default:
			dynamic = true
		}
	}
	if !dynamic {
		if !r.order.filterConflict(static) {
			r.order.recordFilter(static)
			return
		}
	}
	// (K1) as $k1 | ... | {($k1): V1, ...} | __bb_order([$k1, "b", ...])
	var keys []*gojq.Query
	var binds []struct {
		name string
		q    *gojq.Query
	}
	obj := *t.Object
	obj.KeyVals = make([]*gojq.ObjectKeyVal, len(kvs))
	for i, kv := range kvs {
		c := *kv
		switch {
		case kv.Key != "" && kv.Key[0] == '$':
			keys = append(keys, termQuery(&gojq.Term{Type: gojq.TermTypeString, Str: &gojq.String{Str: kv.Key[1:]}}))
		case kv.Key != "":
			keys = append(keys, termQuery(&gojq.Term{Type: gojq.TermTypeString, Str: &gojq.String{Str: kv.Key}}))
		case kv.KeyString != nil && len(kv.KeyString.Queries) == 0:
			keys = append(keys, termQuery(&gojq.Term{Type: gojq.TermTypeString, Str: kv.KeyString}))
		default:
			var kq *gojq.Query
			if kv.KeyQuery != nil {
				kq = kv.KeyQuery
			} else {
				kq = termQuery(&gojq.Term{Type: gojq.TermTypeString, Str: kv.KeyString})
			}
			name := r.fresh()
			binds = append(binds, struct {
				name string
				q    *gojq.Query
			}{name, kq})
			if kv.Val == nil {
				// {"\(x)"} is {"\(x)": .["\(x)"]}.
				c.Val = termQuery(&gojq.Term{Type: gojq.TermTypeIdentity, SuffixList: []*gojq.Suffix{{Index: &gojq.Index{Start: variable(name)}}}})
			}
			c.KeyString, c.KeyQuery = nil, variable(name)
			keys = append(keys, variable(name))
		}
		obj.KeyVals[i] = &c
	}
	keyList := keys[0]
	for _, k := range keys[1:] {
		keyList = &gojq.Query{Left: keyList, Op: gojq.OpComma, Right: k}
	}
	body := pipe(termQuery(&gojq.Term{Type: gojq.TermTypeObject, Object: &obj}),
		termQuery(funcTerm("__bb_order", termQuery(&gojq.Term{Type: gojq.TermTypeArray, Array: &gojq.Array{Query: keyList}}))))
	for i := len(binds) - 1; i >= 0; i-- {
		body = bind(binds[i].q, binds[i].name, body)
	}
	*t = gojq.Term{Type: gojq.TermTypeQuery, Query: body, SuffixList: t.SuffixList}
}

// scanQuery collects from the parsed filter the key order of object
// constructions and the literal keys it indexes.
func (j *jq) scanQuery(q *gojq.Query) {
	seen := map[string]bool{}
	j.userDefs = map[string]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if str, ok := v.Interface().(*gojq.String); ok && strings.Contains(str.Str, "(?<") {
				// capture's objects follow the order of the named groups.
				var names []string
				for _, m := range namedGroup().FindAllStringSubmatch(str.Str, -1) {
					names = append(names, m[1])
				}
				j.order.recordFilter(names)
			}
			if fd, ok := v.Interface().(*gojq.FuncDef); ok {
				j.userDefs[fd.Name] = true
			}
			if idx, ok := v.Interface().(*gojq.Index); ok {
				k := idx.Name
				if k == "" && idx.Str != nil && len(idx.Str.Queries) == 0 {
					k = idx.Str.Str
				}
				if k != "" && !seen[k] {
					seen[k] = true
					j.indexKeys = append(j.indexKeys, k)
				}
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(q))
}
