package interp

// scratch lends expanders their segment buffers, so expanding a word in a
// loop allocates nothing but its result. Expansions nest (a command
// substitution inside ${x:-...} inside a word), so buffers are taken and
// given back in stack order. A frame chain run by one goroutine shares
// one scratch; fork gives a subshell none, and it makes its own.
type scratch struct {
	segs [][]seg
	argv [][]string
}

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

// takeArgv lends a buffer for a command line's words; giveArgv takes it
// back once the command is done with it (see argvKept).
func (f *frame) takeArgv(n int) []string {
	if sc := f.scratch; sc != nil {
		if k := len(sc.argv); k > 0 {
			a := sc.argv[k-1]
			sc.argv = sc.argv[:k-1]
			return a
		}
	}
	return make([]string, 0, n)
}

// giveArgv keeps a only where expansions already made a scratch: a
// one-command script does not pay for one.
func (f *frame) giveArgv(a []string) {
	if f.scratch == nil || cap(a) > maxScratchSegs || len(f.scratch.argv) >= 4 {
		return
	}
	clear(a[:cap(a)]) // let go of the strings
	f.scratch.argv = append(f.scratch.argv, a[:0])
}

// argvKept says whether running args may keep the slice itself: a
// function keeps it as its positional parameters, a command of the
// sandbox as its arguments. Only builtins known to read their arguments
// and let go of them may have a lent buffer.
func (f *frame) argvKept(args []string) bool {
	switch args[0] {
	case "[", "test", "echo", "printf", ":", "true", "false":
		if _, fn := f.funcs[args[0]]; fn || f.disabled[args[0]] {
			return true
		}
		return false
	}
	return true
}
