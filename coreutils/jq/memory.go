package jq

import "reflect"

// gojq has no allocation hook, so jq charges the call's memory budget
// for what it can see being held:
//   - every element of an array being built ([f], and so map, [inputs],
//     ...) as it is added, with all the objects and arrays inside it;
//   - the state of each reduce and foreach as it grows: an object or
//     array built step by step (`. + {...}`, `.[k] = v`, setpath, ...)
//     is charged as it grows (see opState);
//   - the values -s holds.
// What was charged for one input is given back once the filter is done
// with it: nothing built for an input outlives its processing.

// chargeStep batches charges: the budget is asked once per 64 KiB.
const chargeStep = 64 << 10

// orderCost is what recording one object's key order takes (keyOrder's
// entry and node).
const orderCost = 96

// hold charges n bytes, and the key orders recorded since the last call.
func (j *jq) hold(n int64) error {
	if k := len(j.order.byMap); k > j.orders {
		n += int64(k-j.orders) * orderCost
		j.orders = k
	}
	j.pending += n
	if j.pending < chargeStep {
		return nil
	}
	if err := j.c.Grow(j.pending); err != nil {
		j.pending = 0
		return err
	}
	j.held += j.pending
	j.pending = 0
	return nil
}

// release gives back what was charged for the last input.
func (j *jq) release() {
	j.c.Shrink(j.held)
	j.held, j.pending = 0, 0
	j.mem = sizer{}
	j.orders = 0
	clear(j.states)
	for _, s := range j.sites {
		clear(s)
	}
}

// opElem is __bb_elem, the identity through which each element of an
// array construction passes: it charges the element's slot and what the
// element holds that nothing charged before held.
func (j *jq) opElem(v any, _ []any) any {
	if err := j.hold(16 + j.mem.size(v)); err != nil {
		return err
	}
	return v
}

// stateSite counts the updates of one reduce or foreach of the filter.
type stateSite struct {
	steps int64 // updates so far
	next  int64 // the update at which to measure the state again
}

// opState is __bb_state(site), the identity through which each new state
// of a reduce or foreach passes. At every half again as many updates it
// charges what the state holds that nothing charged before held: a state
// grown step by step is charged as it grows, at most half its size late,
// and the walks cost a few times its final size in all (they stop at
// what was met before). An object copied at each step is charged at
// most three times over, as it is copied, not once.
func (j *jq) opState(v any, args []any) any {
	id, ok := siteOf(args[0], len(j.states))
	if !ok {
		return v
	}
	s := &j.states[id]
	s.steps++
	if s.steps < s.next {
		return v
	}
	s.next = s.steps + max(1, s.steps/4)
	if err := j.hold(j.mem.size(v)); err != nil {
		return err
	}
	return v
}

// sizer estimates the memory values take: Go's headers, map slots and
// boxed scalars as well as the bytes. It counts each object or array
// once, however many values share it (`{a: $x, b: $x}`, or a state and
// the elements it was built from), and its own record of them too. A
// container of scalars only is recorded in a small cache of the lately
// met rather than the set: sharing one cannot multiply the count (it
// holds no shared parts), and a cache miss counts it again, erring high
// only for a filter that repeats many shared containers in turn. A dead container whose address
// is reused goes uncounted.
type sizer struct {
	seen  map[uintptr]struct{}
	cache [64]uintptr // containers of scalars met lately
	tree  bool        // the values share nothing: keep no record
}

// cached reports whether the container at p was met lately, and notes
// it as met.
func (s *sizer) cached(p uintptr) bool {
	if s.tree {
		return false
	}
	slot := &s.cache[(p>>4)%uintptr(len(s.cache))]
	if *slot == p {
		return true
	}
	*slot = p
	return false
}

// first reports whether the container at p, which holds containers, is
// met for the first time.
func (s *sizer) first(p uintptr) bool {
	if s.tree {
		return true
	}
	if s.seen == nil {
		s.seen = map[uintptr]struct{}{}
	}
	n := len(s.seen)
	s.seen[p] = struct{}{} // one hash, not a lookup and an insert
	return len(s.seen) > n
}

// seenCost is what one entry of sizer.seen takes.
const seenCost = 40

func (s *sizer) cost(leaf bool) int64 {
	if s.tree || leaf {
		return 0
	}
	return seenCost
}

// size walks v with a stack of its own: a state built by nesting (`{next:
// .}` in a reduce) is as deep as the steps that built it. A container
// met lately is passed at once; another's children are stacked before it
// is known to be new (whether it holds containers decides where it is
// recorded), and unstacked if it is not.
func (s *sizer) size(v any) int64 {
	var n int64
	stack := []any{v}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		base := len(stack)
		var own int64
		var id uintptr
		switch x := v.(type) {
		case string:
			n += 16 + int64(len(x))
			continue
		case []any:
			if cap(x) == 0 {
				n += 24
				continue
			}
			if id = reflect.ValueOf(x).Pointer(); s.cached(id) {
				n += 24
				continue
			}
			own = 24 + 16*int64(cap(x))
			for _, e := range x {
				stack = s.push(stack, e, &own)
			}
		case map[string]any:
			if len(x) == 0 {
				n += 8
				continue
			}
			if id = mapID(x); s.cached(id) {
				n += 8
				continue
			}
			own = mapBytes(len(x))
			for k, e := range x {
				own += int64(len(k))
				stack = s.push(stack, e, &own)
			}
		default:
			n += 8
			continue
		}
		leaf := len(stack) == base
		if !leaf && !s.first(id) {
			stack = stack[:base]
			n += 8
			continue
		}
		n += own + s.cost(leaf)
	}
	return n
}

// push adds e to the walk if it is a container, else counts it at once.
func (s *sizer) push(stack []any, e any, n *int64) []any {
	switch x := e.(type) {
	case []any, map[string]any:
		return append(stack, e)
	case string:
		*n += 16 + int64(len(x))
	default:
		*n += 8
	}
	return stack
}

// mapBytes is what a Go map of n string keys and interface values takes
// without the keys' bytes: its header and a group of 8 slots when small,
// else slots of 32 bytes at a load of 7/8 with room to grow.
func mapBytes(n int) int64 {
	if n <= 8 {
		return 48 + 8 + 8*32
	}
	return 48 + int64(n)*48
}

// valueSize estimates the memory a decoded value takes (a tree: no
// sharing to look for).
func valueSize(v any) int64 {
	s := sizer{tree: true}
	return s.size(v)
}
