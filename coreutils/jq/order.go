package jq

import (
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// keyOrder remembers the key order of objects. gojq's objects are Go maps,
// so the order jq keeps (input order, then insertion order) is recorded
// beside them, by map identity: for the maps the decoder makes, and for
// the maps the filter's object-building operations make (the filter is
// rewritten so that they go through order-aware functions, see
// rewrite.go). For maps made elsewhere, the order comes from an object of
// the same key set seen before, then from a first-seen rank of keys.
type keyOrder struct {
	// byMap holds the orders of the maps made while the current input is
	// processed; kept those of maps made before the first input (--argjson,
	// --slurpfile values), which live for the whole run. Nothing made for
	// one input outlives its processing, so byMap is emptied after each:
	// it stays small, and a dead map's reused address finds nothing.
	byMap  map[uintptr]*orderNode
	kept   map[uintptr]*orderNode
	bySet  map[string][]string
	rank   map[string]int
	filter map[string][]string // object constructions in the filter
	frank  map[string]int      // keys named in the filter
	last   []string            // keys of the last object recorded
	// lastFilter is the last order found in filter: the objects a
	// filter builds for each input have the same keys (filter is complete
	// before the first input, so what it gives never changes).
	lastFilter []string
	lastNode   *orderNode // the order node of last, once shared
}

// orderNode is a key order as a persistent list, so that adding one key
// to a copy of an object (what a reduce building an object does at each
// step) costs one node, not a copy of all the keys.
type orderNode struct {
	prev *orderNode
	key  string
	n    int      // number of keys up to and including this one
	flat []string // keys in order, when known without walking
}

func (n *orderNode) keys() []string {
	if n.flat != nil {
		return n.flat
	}
	out := make([]string, n.n)
	for p := n; p != nil; p = p.prev {
		if p.flat != nil {
			copy(out, p.flat)
			break
		}
		out[p.n-1] = p.key
	}
	n.flat = out
	return out
}

func newKeyOrder() *keyOrder {
	return &keyOrder{byMap: map[uintptr]*orderNode{}, bySet: map[string][]string{}, rank: map[string]int{}, filter: map[string][]string{}, frank: map[string]int{}}
}

func mapID(m map[string]any) uintptr { return reflect.ValueOf(m).Pointer() }

func setKey(keys []string) string {
	s := append([]string(nil), keys...)
	sort.Strings(s)
	return strings.Join(s, "\x00")
}

// keepAll makes the orders recorded so far last for the whole run.
func (o *keyOrder) keepAll() {
	if len(o.byMap) == 0 {
		return
	}
	if o.kept == nil {
		o.kept = map[uintptr]*orderNode{}
	}
	maps.Copy(o.kept, o.byMap)
	clear(o.byMap)
}

// endInput forgets the orders of the maps made for one input.
func (o *keyOrder) endInput() {
	if len(o.byMap) > 4096 {
		// clear costs the map's capacity: start afresh after a big input.
		o.byMap = map[uintptr]*orderNode{}
		return
	}
	clear(o.byMap)
}

// record notes the order of an object read from input. It reports
// whether it kept keys (if not, the caller may reuse the slice).
func (o *keyOrder) record(m map[string]any, keys []string) bool {
	if len(keys) >= 2 && slices.Equal(keys, o.last) {
		// The same keys in the same order as the object before (a stream
		// of records): their ranks and key set are known.
		if len(m) == len(o.last) {
			// One node serves them all: nodes are never changed.
			if o.lastNode == nil || o.lastNode.n != len(o.last) {
				o.lastNode = &orderNode{n: len(o.last), flat: o.last}
			}
			o.byMap[mapID(m)] = o.lastNode
		}
		return false
	}
	for _, k := range keys {
		if _, ok := o.rank[k]; !ok {
			o.rank[k] = len(o.rank)
		}
	}
	if len(keys) < 2 {
		return false
	}
	o.set(m, keys)
	o.last, o.lastNode = keys, nil
	sk := setKey(keys)
	if _, ok := o.bySet[sk]; !ok {
		o.bySet[sk] = keys
	}
	return true
}

// set records the exact order of m's keys.
func (o *keyOrder) set(m map[string]any, keys []string) {
	if len(m) < 2 {
		return
	}
	o.byMap[mapID(m)] = &orderNode{n: len(keys), flat: keys}
}

// node is m's recorded order, if it still fits m (a map's address may be
// reused once it is garbage).
func (o *keyOrder) node(m map[string]any) *orderNode {
	id := mapID(m)
	n, ok := o.byMap[id]
	if !ok && o.kept != nil {
		n, ok = o.kept[id]
	}
	if !ok || n.n != len(m) {
		return nil
	}
	return n
}

// exact returns m's recorded order if it names exactly m's keys.
func (o *keyOrder) exact(m map[string]any) ([]string, bool) {
	n := o.node(m)
	if n == nil {
		return nil, false
	}
	ks := n.keys()
	if !hasAll(m, ks) {
		return nil, false
	}
	return ks, true
}

// derive records the order of nm, a new version of old: old's keys that
// remain, in old's order, then the new ones in the order of src (the
// right operand of + or *) or, without one, by the usual guess.
func (o *keyOrder) derive(nm, old, src map[string]any) {
	if len(nm) < 2 {
		return
	}
	if n := o.node(old); n != nil && len(old) > 0 {
		// The common case: one key added to a copy, or none.
		added, missing := "", 0
		for k := range nm {
			if _, ok := old[k]; !ok {
				added = k
				missing++
				if missing > 1 {
					break
				}
			}
		}
		switch {
		case missing == 0 && len(nm) == len(old):
			o.byMap[mapID(nm)] = n
			return
		case missing == 1 && len(nm) == len(old)+1:
			o.byMap[mapID(nm)] = &orderNode{prev: n, key: added, n: n.n + 1}
			return
		}
	}
	keys := make([]string, 0, len(nm))
	for _, k := range o.keys(old, false) {
		if _, ok := nm[k]; ok {
			keys = append(keys, k)
		}
	}
	if len(keys) < len(nm) {
		var rest []string
		for _, k := range o.keys(src, false) {
			if _, ok := nm[k]; ok {
				if _, was := old[k]; !was {
					keys = append(keys, k)
				}
			}
		}
		if len(keys) < len(nm) {
			for k := range nm {
				_, was := old[k]
				_, viaSrc := src[k]
				if !was && !viaSrc {
					rest = append(rest, k)
				}
			}
			keys = append(keys, o.guess(rest)...)
		}
	}
	o.byMap[mapID(nm)] = &orderNode{n: len(keys), flat: keys}
}

// added records that k, not in m yet, is about to be added to m in
// place: it goes last.
func (o *keyOrder) added(m map[string]any, k string) {
	n := o.node(m)
	if n == nil && len(m) > 0 {
		ks := o.keys(m, false)
		n = &orderNode{n: len(ks), flat: ks}
	}
	count := 1
	if n != nil {
		count = n.n + 1
	}
	o.byMap[mapID(m)] = &orderNode{prev: n, key: k, n: count}
}

// inherit records, for each object in nv that is a new version of one in
// ov (same place in the tree), the order derived from the old one. It
// follows only what changed: shared maps and arrays are skipped.
func (o *keyOrder) inherit(nv, ov any) {
	switch n := nv.(type) {
	case map[string]any:
		old, isMap := ov.(map[string]any)
		if isMap && len(n) > 0 && mapID(n) == mapID(old) {
			return
		}
		if _, ok := o.exact(n); ok {
			return
		}
		o.derive(n, old, nil)
		for k, v := range n {
			o.inherit(v, old[k])
		}
	case []any:
		old, _ := ov.([]any)
		if len(n) > 0 && len(old) == len(n) && &n[0] == &old[0] {
			return
		}
		for i, v := range n {
			var ov any
			if i < len(old) {
				ov = old[i]
			}
			o.inherit(v, ov)
		}
	}
}

// recordFilter notes the key order of an object construction.
func (o *keyOrder) recordFilter(keys []string) {
	for _, k := range keys {
		if _, ok := o.frank[k]; !ok {
			o.frank[k] = len(o.frank)
		}
	}
	if len(keys) < 2 {
		return
	}
	sk := setKey(keys)
	if _, ok := o.filter[sk]; !ok {
		o.filter[sk] = keys
	}
}

// filterConflict reports whether a construction of keys would get
// another order from recordFilter's table (two constructions of the same
// keys in different orders).
func (o *keyOrder) filterConflict(keys []string) bool {
	ks, ok := o.filter[setKey(keys)]
	return ok && !slices.Equal(ks, keys)
}

// keys returns m's keys in the order jq would print them.
func (o *keyOrder) keys(m map[string]any, sorted bool) []string {
	if !sorted && len(m) > 1 {
		if ks, ok := o.exact(m); ok {
			return ks
		}
	}
	if ks := o.lastFilter; !sorted && len(ks) == len(m) && len(ks) > 1 && hasAll(m, ks) {
		return ks
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	if sorted || len(keys) < 2 {
		sort.Strings(keys)
		return keys
	}
	sk := setKey(keys)
	if ks, ok := o.filter[sk]; ok {
		o.lastFilter = ks
		return ks
	}
	if ks, ok := o.bySet[sk]; ok {
		return ks
	}
	return o.guess(keys)
}

// guess orders keys whose insertion order is unknown: keys seen in the
// input first, in input order, then the filter's, then the rest sorted.
func (o *keyOrder) guess(keys []string) []string {
	sort.Strings(keys)
	rankOf := func(k string) int {
		if r, ok := o.rank[k]; ok {
			return r
		}
		if r, ok := o.frank[k]; ok {
			return 1<<40 + r
		}
		return math.MaxInt
	}
	sort.SliceStable(keys, func(i, j int) bool { return rankOf(keys[i]) < rankOf(keys[j]) })
	return keys
}

func hasAll(m map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}
