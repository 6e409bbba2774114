package jq

// gojq has no allocation hook, so jq charges the call's memory budget
// for what it can see growing: every element of an array being built
// ([f], and so map, [inputs], ...) as it is added, and the values -s
// holds. What was charged for one input is given back once the filter is
// done with it: nothing built for an input outlives its processing.

// chargeStep batches charges: the budget is asked once per 64 KiB.
const chargeStep = 64 << 10

// hold charges n bytes.
func (j *jq) hold(n int64) error {
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
}

// opElem is __bb_elem, the identity through which each element of an
// array construction passes: it charges the element's slot and a
// string's bytes (a container element is charged as it is built).
func (j *jq) opElem(v any, _ []any) any {
	n := int64(16)
	if s, ok := v.(string); ok {
		n += int64(len(s))
	}
	if err := j.hold(n); err != nil {
		return err
	}
	return v
}

// valueSize is an estimate of the memory a decoded value takes: Go's
// headers and map slots as well as the bytes.
func valueSize(v any) int64 {
	switch x := v.(type) {
	case string:
		return 16 + int64(len(x))
	case []any:
		n := int64(24 + 16*len(x))
		for _, e := range x {
			n += valueSize(e)
		}
		return n
	case map[string]any:
		n := int64(48)
		for k, e := range x {
			n += 48 + int64(len(k)) + valueSize(e)
		}
		return n
	}
	return 8
}
