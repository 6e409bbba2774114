package jq

import (
	"strconv"

	"github.com/itchyny/gojq"
)

// gojq copies an object or array at every update (`.[k] = v` copies the
// whole object to change one key), so a reduce building an object key by
// key costs the square of its size: 20,000 records took seconds, 200,000
// minutes. jq itself updates in place what only the reduce state holds.
// The common forms of a reduce's update are rewritten to do the same:
//
//	.[K1][K2]... op= V    (op one of = += -= *= /= %= //=)
//	setpath(P; V)
//	. + V
//
// when K, P and V yield at most one value each (see single): then the
// update is one call of __bb_update, which is given the state and what
// K, P and V evaluated to, and changes in place the containers that it
// made itself for this reduce and that nothing else can hold (see
// inplace.go). What it does not handle, it declines, and the update
// runs as written:
//
//	K1 as $a | ... | V as $v |
//	  __bb_update(site; op; [$a, ...]; $v; shared) as $r |
//	  if $r == null then (.[$a]... op= $v | __bb_state(n)) else $r end
//
// and the reduce itself becomes `reduce SRC as $x (START | __bb_begin(site);
// UPDATE) | __bb_end(site)`, so that what one run of the reduce made is
// never changed by another (a recursive filter may run the same reduce
// inside its own source).

// singleFuncs are the builtins that yield at most one value when each of
// their arguments does, and call no filter of the user's.
var singleFuncs = map[string]int{
	"length": 0, "utf8bytelength": 0, "not": 0, "type": 0, "tostring": 0, "tonumber": 0,
	"tojson": 0, "ascii_downcase": 0, "ascii_upcase": 0, "floor": 0, "ceil": 0, "round": 0,
	"sqrt": 0, "fabs": 0, "keys": 0, "keys_unsorted": 0, "add": 0, "ltrimstr": 1, "rtrimstr": 1,
	"startswith": 1, "endswith": 1, "split": 1, "join": 1, "has": 1, "contains": 1, "test": 1,
	"getpath": 1, "select": 1,
}

// single reports whether q yields at most one value, and whether it may
// read the state (its input): a value read from the state may be part of
// it, so storing it back needs care. It errs towards "no" and "may".
func (r *orderRewriter) single(q *gojq.Query) (ok, reads bool) {
	if q == nil {
		return true, false
	}
	if len(q.FuncDefs) > 0 {
		return false, true
	}
	if q.Term != nil {
		return r.singleTerm(q.Term)
	}
	switch q.Op {
	case gojq.OpPipe:
		if len(q.Patterns) > 1 {
			return false, true
		}
	case gojq.OpAdd, gojq.OpSub, gojq.OpMul, gojq.OpDiv, gojq.OpMod, gojq.OpEq, gojq.OpNe,
		gojq.OpGt, gojq.OpLt, gojq.OpGe, gojq.OpLe, gojq.OpAnd, gojq.OpOr, gojq.OpAlt:
	default:
		return false, true
	}
	lok, lreads := r.single(q.Left)
	rok, rreads := r.single(q.Right)
	return lok && rok, lreads || rreads
}

func (r *orderRewriter) singleTerm(t *gojq.Term) (ok, reads bool) {
	all := func(qs ...*gojq.Query) bool {
		for _, q := range qs {
			qok, qreads := r.single(q)
			ok = ok && qok
			reads = reads || qreads
		}
		return ok
	}
	str := func(s *gojq.String) bool {
		return s == nil || all(s.Queries...)
	}
	ok = true
	for _, s := range t.SuffixList {
		if s.Iter || s.Index == nil || !str(s.Index.Str) || !all(s.Index.Start, s.Index.End) {
			return false, true
		}
	}
	switch t.Type {
	case gojq.TermTypeNull, gojq.TermTypeTrue, gojq.TermTypeFalse, gojq.TermTypeNumber:
	case gojq.TermTypeString:
		str(t.Str)
	case gojq.TermTypeIdentity:
		reads = true
	case gojq.TermTypeIndex, gojq.TermTypeFormat:
		reads = true
		if t.Index != nil {
			str(t.Index.Str)
			all(t.Index.Start, t.Index.End)
		}
		str(t.Str)
	case gojq.TermTypeArray:
		// [f] is one value, whatever f yields; f may read the state.
		if t.Array.Query != nil {
			_, qreads := r.single(t.Array.Query)
			reads = reads || qreads
		}
	case gojq.TermTypeObject:
		for _, kv := range t.Object.KeyVals {
			if kv.Val == nil && (kv.Key == "" || kv.Key[0] != '$') {
				reads = true // {a} is {a: .a}
			}
			str(kv.KeyString)
			all(kv.KeyQuery, kv.Val)
		}
	case gojq.TermTypeUnary:
		tok, treads := r.singleTerm(t.Unary.Term)
		ok, reads = ok && tok, reads || treads
	case gojq.TermTypeQuery:
		all(t.Query)
	case gojq.TermTypeIf:
		all(t.If.Cond, t.If.Then, t.If.Else)
		for _, e := range t.If.Elif {
			all(e.Cond, e.Then)
		}
	case gojq.TermTypeFunc:
		name := t.Func.Name
		if name[0] == '$' {
			break
		}
		if n, known := singleFuncs[name]; !known || n != len(t.Func.Args) || r.userDefs[name] {
			return false, true
		}
		reads = true
		all(t.Func.Args...)
	default:
		return false, true
	}
	return ok, reads
}

// updatePath returns the keys of a path `.[K1][K2]...` or `.a.b`, as
// queries, if it is one whose keys yield at most one value each.
func (r *orderRewriter) updatePath(q *gojq.Query) []*gojq.Query {
	if q == nil || q.Term == nil || len(q.FuncDefs) > 0 || q.Term.Type != gojq.TermTypeIndex {
		return nil
	}
	t := q.Term
	indexes := []*gojq.Index{t.Index}
	for _, s := range t.SuffixList {
		if s.Iter || s.Optional || s.Index == nil {
			return nil
		}
		indexes = append(indexes, s.Index)
	}
	var keys []*gojq.Query
	for _, x := range indexes {
		switch {
		case x.IsSlice || x.End != nil:
			return nil
		case x.Name != "":
			keys = append(keys, stringQuery(x.Name))
		case x.Str != nil:
			keys = append(keys, termQuery(&gojq.Term{Type: gojq.TermTypeString, Str: x.Str}))
		case x.Start != nil:
			keys = append(keys, x.Start)
		default:
			return nil
		}
	}
	for _, k := range keys {
		if ok, _ := r.single(k); !ok {
			return nil
		}
	}
	return keys
}

var updateOps = map[gojq.Operator]string{
	gojq.OpAssign: "=", gojq.OpUpdateAdd: "+=", gojq.OpUpdateSub: "-=", gojq.OpUpdateMul: "*=",
	gojq.OpUpdateDiv: "/=", gojq.OpUpdateMod: "%=", gojq.OpUpdateAlt: "//=",
}

// inPlace returns the rewritten update of a reduce (see above), or nil
// if it is not one of the forms. slow is the update as written with its
// parts replaced by the variables that hold their values.
func (r *orderRewriter) inPlace(u *gojq.Query, site int, measured func(*gojq.Query) *gojq.Query) *gojq.Query {
	var (
		op    string
		keys  []*gojq.Query // the path's keys, or a whole path (setpath)
		val   *gojq.Query
		slow  func(path []*gojq.Query, val *gojq.Query) *gojq.Query
		whole bool // keys[0] is setpath's path
	)
	switch {
	case u.Term == nil && updateOps[u.Op] != "" && len(u.FuncDefs) == 0:
		op, keys, val = updateOps[u.Op], r.updatePath(u.Left), u.Right
		if keys == nil {
			return nil
		}
		slow = func(path []*gojq.Query, val *gojq.Query) *gojq.Query {
			first := &gojq.Term{Type: gojq.TermTypeIndex, Index: &gojq.Index{Start: path[0]}}
			for _, k := range path[1:] {
				first.SuffixList = append(first.SuffixList, &gojq.Suffix{Index: &gojq.Index{Start: k}})
			}
			return &gojq.Query{Left: termQuery(first), Op: u.Op, Right: val}
		}
	case u.Term != nil && u.Term.Type == gojq.TermTypeFunc && u.Term.Func.Name == "setpath" &&
		len(u.Term.Func.Args) == 2 && len(u.Term.SuffixList) == 0 && !r.userDefs["setpath"]:
		op, keys, val, whole = "=", u.Term.Func.Args[:1], u.Term.Func.Args[1], true
		if ok, _ := r.single(keys[0]); !ok {
			return nil
		}
		slow = func(path []*gojq.Query, val *gojq.Query) *gojq.Query {
			return termQuery(funcTerm("setpath", path[0], val))
		}
	case u.Term == nil && u.Op == gojq.OpAdd && u.Left.Term != nil && len(u.Left.FuncDefs) == 0 &&
		u.Left.Term.Type == gojq.TermTypeIdentity && len(u.Left.Term.SuffixList) == 0:
		op, val = "merge", u.Right
		slow = func(_ []*gojq.Query, val *gojq.Query) *gojq.Query {
			return &gojq.Query{Left: identity(), Op: gojq.OpAdd, Right: val}
		}
	default:
		return nil
	}
	ok, reads := r.single(val)
	if !ok {
		return nil
	}
	// The parts are rewritten like any query, then bound in order.
	var vars []*gojq.Query
	for _, k := range keys {
		r.query(k)
		vars = append(vars, variable(r.fresh()))
	}
	r.query(val)
	v := variable(r.fresh())
	pathArg := termQuery(&gojq.Term{Type: gojq.TermTypeArray, Array: &gojq.Array{}})
	if whole {
		pathArg = vars[0]
	} else if len(vars) > 0 {
		list := vars[0]
		for _, k := range vars[1:] {
			list = &gojq.Query{Left: list, Op: gojq.OpComma, Right: k}
		}
		pathArg = termQuery(&gojq.Term{Type: gojq.TermTypeArray, Array: &gojq.Array{Query: list}})
	}
	shared := gojq.TermTypeFalse
	if reads {
		shared = gojq.TermTypeTrue
	}
	call := funcTerm("__bb_update", numberQuery(site), stringQuery(op), pathArg, v, termQuery(&gojq.Term{Type: shared}))
	asIs := slow(vars, v)
	r.query(asIs) // gets the order bookkeeping of any update
	res := variable(r.fresh())
	body := bind(termQuery(call), res.Term.Func.Name, termQuery(&gojq.Term{Type: gojq.TermTypeIf, If: &gojq.If{
		Cond: &gojq.Query{Left: res, Op: gojq.OpEq, Right: termQuery(&gojq.Term{Type: gojq.TermTypeNull})},
		Then: measured(asIs),
		Else: res,
	}}))
	body = bind(val, v.Term.Func.Name, body)
	for i := len(keys) - 1; i >= 0; i-- {
		body = bind(keys[i], vars[i].Term.Func.Name, body)
	}
	return body
}

func stringQuery(s string) *gojq.Query {
	return termQuery(&gojq.Term{Type: gojq.TermTypeString, Str: &gojq.String{Str: s}})
}

func numberQuery(n int) *gojq.Query {
	return termQuery(&gojq.Term{Type: gojq.TermTypeNumber, Number: strconv.Itoa(n)})
}
