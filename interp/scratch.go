package interp

// scratch lends expanders their segment buffers, so expanding a word in a
// loop allocates nothing but its result. Expansions nest (a command
// substitution inside ${x:-...} inside a word), so buffers are taken and
// given back in stack order. A frame chain run by one goroutine shares
// one scratch; fork gives a subshell none, and it makes its own.
type scratch struct{ segs [][]seg }

// maxScratchSegs bounds the buffers kept: a word of thousands of parts
// does not pin its buffer for the rest of the call.
const maxScratchSegs = 64

func (f *frame) takeSegs() []seg {
	sc := f.scratch
	if sc == nil {
		sc = &scratch{}
		f.scratch = sc
	}
	if n := len(sc.segs); n > 0 {
		s := sc.segs[n-1]
		sc.segs = sc.segs[:n-1]
		return s
	}
	return make([]seg, 0, 8)
}

func (f *frame) giveSegs(s []seg) {
	if f.scratch == nil || cap(s) > maxScratchSegs || len(f.scratch.segs) >= 16 {
		return
	}
	clear(s) // let go of the strings
	f.scratch.segs = append(f.scratch.segs, s[:0])
}
