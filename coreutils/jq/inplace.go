package jq

import (
	"maps"
	"reflect"
)

// In-place updates of a reduce's state (see inplace_rewrite.go for the
// forms). jq counts references and changes a value in place when it is
// the only holder; Go has no counts, so ownership is tracked instead:
// each in-place reduce site owns the objects and arrays it made (copies
// of what it was given, new arrays and objects it created on a path),
// and changes in place only those. Nothing else can hold them:
//   - the state is seen only by the update, whose parts yield one value
//     each and call no filter of the user's, so the update runs once per
//     step and the old state is dead once it returns;
//   - a part that may read the state and yields an object or array could
//     store a piece of the state inside it (`.[k] = .`): such an update
//     is declined and everything the site owned is given up;
//   - the site gives up what it owns when the reduce starts and when it
//     ends (__bb_begin, __bb_end): its result, once out, is the user's,
//     and a recursive filter running the same reduce inside its source
//     only makes the outer run copy again.
// A declined update runs as written (gojq copies), and the site gives up
// what it owns, as gojq's result may share it.

// ownedSet holds, by address, the objects and arrays a site owns. It
// holds them, not just their addresses, so no address is reused while
// it is in the set.
type ownedSet map[uintptr]any

func (s ownedSet) ownsMap(m map[string]any) bool {
	_, ok := s[mapID(m)]
	return ok && m != nil
}

func sliceID(a []any) uintptr { return reflect.ValueOf(a).Pointer() }

func (s ownedSet) ownsSlice(a []any) bool {
	if cap(a) == 0 {
		return false
	}
	e, ok := s[sliceID(a)].([]any)
	return ok && len(e) == len(a)
}

// siteOf reads a site number given as a literal in the rewritten filter.
func siteOf(arg any, n int) (int, bool) {
	id, ok := arg.(int)
	if f, isFloat := arg.(float64); isFloat {
		id, ok = int(f), true
	}
	return id, ok && id >= 0 && id < n
}

// opBegin is __bb_begin(site) and __bb_end(site): the site gives up what
// it owns.
func (j *jq) opBegin(v any, args []any) any {
	if id, ok := siteOf(args[0], len(j.sites)); ok {
		clear(j.sites[id])
	}
	return v
}

// opUpdate is __bb_update(site; op; path; value; shared): the new state,
// or null to have the update run as written.
func (j *jq) opUpdate(state any, args []any) any {
	id, ok := siteOf(args[0], len(j.sites))
	if !ok {
		return nil
	}
	if j.sites[id] == nil {
		j.sites[id] = ownedSet{}
	}
	s := j.sites[id]
	op, _ := args[1].(string)
	v := args[3]
	switch v.(type) {
	case map[string]any, []any:
		if args[4] == true {
			clear(s)
			return nil
		}
	}
	var out any
	var err error
	if op == "merge" {
		out, err = j.mergeInPlace(s, state, v)
	} else {
		path, _ := args[2].([]any)
		out, err = j.setInPlace(s, state, op, path, v)
	}
	if err != nil {
		return err
	}
	if out == nil {
		clear(s)
	}
	return out
}

// setInPlace is `.[k1][k2]... op= v` on an object state, or nil when the
// state or path is not one it handles or the operation fails (the update
// as written then gives jq's result or error).
func (j *jq) setInPlace(s ownedSet, state any, op string, path []any, v any) (any, error) {
	root, isMap := state.(map[string]any)
	if (state != nil && !isMap) || len(path) == 0 {
		return nil, nil
	}
	// Check the whole path and compute the new value before changing
	// anything.
	cur := root
	for i, p := range path {
		k, ok := p.(string)
		if !ok {
			return nil, nil
		}
		if i == len(path)-1 {
			break
		}
		switch next := cur[k].(type) {
		case nil:
			cur = nil
		case map[string]any:
			cur = next
		default:
			return nil, nil
		}
	}
	last := path[len(path)-1].(string)
	nv, charged, ok, err := j.combine(s, op, cur[last], v)
	if !ok || err != nil {
		return nil, err
	}
	m, err := j.own(s, root)
	if err != nil {
		return nil, err
	}
	top := m
	for _, p := range path[:len(path)-1] {
		k := p.(string)
		child, _ := m[k].(map[string]any)
		c, err := j.own(s, child)
		if err != nil {
			return nil, err
		}
		if child == nil || mapID(c) != mapID(child) {
			if err := j.put(m, k, c, true); err != nil {
				return nil, err
			}
		}
		m = c
	}
	return top, j.put(m, last, nv, !charged)
}

// combine is `old op v`; ok is false if that is an error, charged true
// if the result was charged to the budget already.
func (j *jq) combine(s ownedSet, op string, old, v any) (out any, charged, ok bool, err error) {
	switch op {
	case "=":
		out = v
	case "//=":
		out = old
		if old == nil || old == false {
			out = v
		}
	case "+=":
		if oa, isArr := old.([]any); isArr {
			if va, isArr := v.([]any); isArr {
				a, err := j.appendOwned(s, oa, va)
				return a, true, true, err
			}
		}
		out = j.opAdd(nil, []any{old, v})
	case "*=":
		out = j.opMul(nil, []any{old, v})
	case "-=", "/=", "%=":
		out = runOne(j.ops.binary(op[:1]), []any{old, v})
	default:
		return nil, false, false, nil
	}
	_, isErr := out.(error)
	return out, false, !isErr, nil
}

// mergeInPlace is `. + v` for an object or array state.
func (j *jq) mergeInPlace(s ownedSet, state, v any) (any, error) {
	switch l := state.(type) {
	case map[string]any:
		r, ok := v.(map[string]any)
		if !ok {
			return nil, nil
		}
		if len(r) == 0 {
			return l, nil
		}
		m, err := j.own(s, l)
		if err != nil {
			return nil, err
		}
		for _, k := range j.order.keys(r, false) {
			if err := j.put(m, k, r[k], true); err != nil {
				return nil, err
			}
		}
		return m, nil
	case []any:
		if r, ok := v.([]any); ok {
			return j.appendOwned(s, l, r)
		}
	}
	return nil, nil
}

// own returns m if the site owns it, else an owned copy (a new object
// for nil).
func (j *jq) own(s ownedSet, m map[string]any) (map[string]any, error) {
	if s.ownsMap(m) {
		return m, nil
	}
	c := make(map[string]any, len(m)+1)
	maps.Copy(c, m)
	if len(m) > 0 {
		j.order.derive(c, m, nil)
	}
	s[mapID(c)] = c
	return c, j.hold(j.mem.size(c))
}

// put sets m[k], m owned: a new key goes last in m's order. fresh: v
// was not charged yet.
func (j *jq) put(m map[string]any, k string, v any, fresh bool) error {
	var n int64
	if _, had := m[k]; !had {
		j.order.added(m, k)
		n = mapBytes(9) - mapBytes(8) + int64(len(k)) + orderCost
	}
	if fresh {
		switch v.(type) {
		case string, []any, map[string]any:
			n += j.mem.size(v)
		default:
			n += 8
		}
	}
	m[k] = v
	return j.hold(n)
}

// appendOwned is l + r for arrays: appended in place if the site owns l,
// else into an owned copy with room to grow.
func (j *jq) appendOwned(s ownedSet, l, r []any) (any, error) {
	if len(r) == 0 {
		return l, nil
	}
	if !s.ownsSlice(l) {
		a := make([]any, len(l), 2*(len(l)+len(r)))
		copy(a, l)
		l = a
		s[sliceID(l)] = l
		if err := j.hold(24 + 16*int64(cap(l))); err != nil {
			return nil, err
		}
	}
	id := sliceID(l)
	a := append(l, r...)
	if nid := sliceID(a); nid != id {
		delete(s, id)
		id = nid
		if err := j.hold(24 + 16*int64(cap(a))); err != nil {
			return nil, err
		}
	}
	s[id] = a
	var n int64
	for _, e := range r {
		n += j.mem.size(e)
	}
	return a, j.hold(n)
}
