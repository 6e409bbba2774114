package jq

import (
	"github.com/itchyny/gojq"
)

// The order-aware operations the rewritten filter calls (see rewrite.go).
// Objects are merged here; the other types are computed here where that
// is plain (numbers, strings, arrays) and otherwise by gojq itself
// (gojqOps), so that results and error messages stay gojq's.

// gojqOps runs gojq's own operators on values.
type gojqOps struct {
	add, mul, addAll, fromJSON *gojq.Code
	binaries                   map[string]*gojq.Code // see binary
}

// binary is gojq's `.[0] op .[1]`, compiled when first needed.
func (g *gojqOps) binary(op string) *gojq.Code {
	if c, ok := g.binaries[op]; ok {
		return c
	}
	if g.binaries == nil {
		g.binaries = map[string]*gojq.Code{}
	}
	c := compileConst(".[0] " + op + " .[1]")
	g.binaries[op] = c
	return c
}

// compileConst compiles a filter of ours.
func compileConst(src string) *gojq.Code {
	q, err := gojq.Parse(src)
	if err != nil {
		panic(err) // constant sources
	}
	c, err := gojq.Compile(q)
	if err != nil {
		panic(err)
	}
	return c
}

func newGojqOps() *gojqOps {
	return &gojqOps{
		add:      compileConst(".[0] + .[1]"),
		mul:      compileConst(".[0] * .[1]"),
		addAll:   compileConst("add"),
		fromJSON: compileConst("fromjson"),
	}
}

func runOne(c *gojq.Code, v any) any {
	out, ok := c.Run(v).Next()
	if !ok {
		return nil
	}
	return out
}

func (j *jq) opAdd(_ any, args []any) any {
	l, r := args[0], args[1]
	switch x := l.(type) {
	case nil:
		return r
	case int:
		if y, ok := r.(int); ok {
			if v := x + y; (v >= x) == (y >= 0) {
				return v
			}
		}
	case float64:
		if y, ok := r.(float64); ok {
			return x + y
		}
	case string:
		if y, ok := r.(string); ok {
			return x + y
		}
	case map[string]any:
		switch y := r.(type) {
		case nil:
			return l
		case map[string]any:
			return j.mergeObjects(x, y)
		}
	}
	if r == nil {
		return l
	}
	return runOne(j.ops.add, []any{l, r})
}

// mergeObjects is l + r: l's keys in l's order, then r's new keys in r's.
func (j *jq) mergeObjects(l, r map[string]any) any {
	if len(l) == 0 {
		return r
	}
	if len(r) == 0 {
		return l
	}
	m := make(map[string]any, len(l)+len(r))
	for k, v := range l {
		m[k] = v
	}
	for k, v := range r {
		m[k] = v
	}
	j.order.derive(m, l, r)
	return m
}

func (j *jq) opMul(_ any, args []any) any {
	l, r := args[0], args[1]
	switch x := l.(type) {
	case int:
		if y, ok := r.(int); ok && y != -1 {
			if v := x * y; y == 0 || v/y == x {
				return v
			}
		}
	case float64:
		if y, ok := r.(float64); ok {
			return x * y
		}
	case map[string]any:
		if y, ok := r.(map[string]any); ok {
			return j.deepMerge(x, y)
		}
	}
	return runOne(j.ops.mul, []any{l, r})
}

// deepMerge is l * r, in order as mergeObjects.
func (j *jq) deepMerge(l, r map[string]any) map[string]any {
	m := make(map[string]any, len(l)+len(r))
	for k, v := range l {
		m[k] = v
	}
	for k, v := range r {
		if lm, ok := m[k].(map[string]any); ok {
			if rm, ok := v.(map[string]any); ok {
				v = j.deepMerge(lm, rm)
			}
		}
		m[k] = v
	}
	j.order.derive(m, l, r)
	return m
}

// opAddAll is add: objects are merged in order; the rest is gojq's.
func (j *jq) opAddAll(v any, _ []any) any {
	arr, ok := v.([]any)
	if !ok {
		return runOne(j.ops.addAll, v)
	}
	sawObject := false
	for _, el := range arr {
		switch el.(type) {
		case nil:
		case map[string]any:
			sawObject = true
		default:
			return runOne(j.ops.addAll, v)
		}
	}
	if !sawObject {
		return runOne(j.ops.addAll, v)
	}
	// One object filled in turn, not a copy per element (from_entries
	// over many entries): the keys of the first in its order, then each
	// next one's new keys in its order, as . + $x at each step gives.
	out := map[string]any{}
	var keys []string
	for _, el := range arr {
		m, _ := el.(map[string]any)
		for _, k := range j.order.keys(m, false) {
			if _, had := out[k]; !had {
				keys = append(keys, k)
			}
			out[k] = m[k]
		}
	}
	j.order.set(out, keys)
	return out
}

// opOrder records the key order of an object construction: keys in the
// order written, a repeated key in its first place.
func (j *jq) opOrder(v any, args []any) any {
	m, ok := v.(map[string]any)
	if !ok || len(m) < 2 {
		return v
	}
	list, _ := args[0].([]any)
	keys := make([]string, 0, len(m))
	seen := make(map[string]bool, len(m))
	for _, k := range list {
		if s, ok := k.(string); ok && !seen[s] {
			if _, in := m[s]; in {
				seen[s] = true
				keys = append(keys, s)
			}
		}
	}
	if len(keys) == len(m) {
		j.order.set(m, keys)
	}
	return v
}

func (j *jq) opInherit(v any, args []any) any {
	j.order.inherit(v, args[0])
	return v
}

// opFromJSON parses with jq's decoder, which records key order; gojq
// reports what it cannot parse.
func (j *jq) opFromJSON(v any, _ []any) any {
	if s, ok := v.(string); ok {
		if out, err := j.parseOne(s); err == nil {
			return out
		}
	}
	return runOne(j.ops.fromJSON, v)
}

// jqError is an error already in jq's words.
type jqError struct{ msg string }

func (e *jqError) Error() string { return e.msg }

func (j *jq) noKeys(v any) error {
	return &jqError{jqPreview(gojq.Preview(v)) + " has no keys"}
}

func (j *jq) toEntries(v any, _ []any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make([]any, 0, len(x))
		for _, k := range j.order.keys(x, false) {
			out = append(out, map[string]any{"key": k, "value": x[k]})
		}
		return out
	case []any:
		out := make([]any, 0, len(x))
		for i, el := range x {
			out = append(out, map[string]any{"key": i, "value": el})
		}
		return out
	}
	return j.noKeys(v)
}

func (j *jq) keysUnsorted(v any, _ []any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make([]any, 0, len(x))
		for _, k := range j.order.keys(x, false) {
			out = append(out, k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = i
		}
		return out
	}
	return j.noKeys(v)
}
