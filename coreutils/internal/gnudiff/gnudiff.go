// Package gnudiff computes line differences the way GNU diff 3.8 does, so
// that the hunks diff prints are GNU's own: the identical prefix and
// suffix are trimmed down to a horizon of context lines, lines are put in
// equivalence classes under the --ignore-* options, lines with no match in
// the other file (and runs of very common lines) are discarded before the
// comparison, the remaining lines are compared with Myers' O(ND) algorithm
// (forward and backward searches meeting in a middle snake, with GNU's
// "too expensive" cut-off and the optional --speed-large-files
// heuristic), and the resulting change runs are slid so that they merge
// and line up with the other file's changes.
package gnudiff

import (
	"bytes"
	"context"
)

// WhiteSpace is how white space takes part in comparing lines, in the
// order of GNU's enum (later values ignore more).
type WhiteSpace int

const (
	NoWhiteSpace                 WhiteSpace = iota
	TabExpansion                            // -E
	TrailingSpace                           // -Z
	TabExpansionAndTrailingSpace            // -E -Z
	SpaceChange                             // -b
	AllSpace                                // -w
)

// Options controls the comparison.
type Options struct {
	IgnoreCase bool
	WhiteSpace WhiteSpace
	TabSize    int // for -E; 8 when 0
	// Horizon is the number of lines of the identical prefix and suffix
	// kept in the analysis (at least the context of the output).
	Horizon         int
	Minimal         bool // -d: no discarding, no cut-off
	SpeedLargeFiles bool // -H
	// Robust is true for every output style but ed scripts: an incomplete
	// last line then differs from the same line with a newline.
	Robust bool
}

// File is one side of a comparison.
type File struct {
	// Data is the text, with a newline appended when the last line had
	// none (MissingNewline).
	Data           []byte
	MissingNewline bool
	// starts holds the offset of each line and, last, the end of the
	// last line (before the appended newline in robust mode).
	starts []int
	// Prefix is the number of leading lines left out of the analysis.
	Prefix int
}

// NumLines is the number of lines in the file.
func (f *File) NumLines() int { return len(f.starts) - 1 }

// Line returns line i (0-based) with its newline; the last line of a
// file without a final newline has none.
func (f *File) Line(i int) []byte { return f.Data[f.starts[i]:f.starts[i+1]] }

// Complete reports whether line i ends with a newline.
func (f *File) Complete(i int) bool {
	e := f.starts[i+1]
	return e > f.starts[i] && f.Data[e-1] == '\n'
}

// Change is a run of deleted lines of file 0 and inserted lines of file 1.
// Line0 and Line1 are 0-based line numbers; when Deleted is 0, Line0 is
// the line before which the insertion goes, and likewise for Line1.
type Change struct {
	Line0, Line1      int
	Deleted, Inserted int
}

// NewFile prepares data for comparison.
func NewFile(data []byte) *File {
	f := &File{Data: data}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		d := make([]byte, len(data)+1)
		copy(d, data)
		d[len(data)] = '\n'
		f.Data = d
		f.MissingNewline = true
	}
	return f
}

// Compare computes the edit script turning a into b. It returns nil
// (and ctx's error) if ctx is cancelled.
func Compare(ctx context.Context, a, b *File, opt Options) ([]Change, error) {
	if opt.TabSize <= 0 {
		opt.TabSize = 8
	}
	c := &comparison{ctx: ctx, opt: opt, f: [2]*File{a, b}}
	c.identicalEnds()
	for i, f := range c.f {
		f.splitLines(opt.Robust, c.prefixEnd[i], c.suffixBegin[i], &c.region[i])
	}
	c.classify()
	c.discardConfusingLines()
	c.runCompare()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.shiftBoundaries()
	return c.buildScript(), nil
}

type region struct {
	first, n int // lines [first, first+n) are analysed
}

type comparison struct {
	ctx context.Context
	opt Options
	f   [2]*File

	prefixEnd, suffixBegin [2]int
	region                 [2]region

	equivs  [2][]int   // class of each analysed line
	nclass  int        // number of classes
	changed [2][]bool  // one flag per analysed line, with a false sentinel at each end
	undisc  [2][]int32 // classes of the lines not discarded
	realIdx [2][]int   // their indexes among the analysed lines

	fd, bd      []int32 // diagonal vectors, indexed by diagonal + doff
	doff        int
	tooExpens   int
	steps       int
	interrupted bool
}

// identicalEnds finds the byte-identical prefix and suffix of the two
// files, keeping Horizon lines of each in the analysis.
func (c *comparison) identicalEnds() {
	b0, b1 := c.f[0].Data, c.f[1].Data
	n0, n1 := len(b0), len(b1)
	m0, m1 := 0, 0
	if c.f[0].MissingNewline {
		m0 = 1
	}
	if c.f[1].MissingNewline {
		m1 = 1
	}
	p := 0
	lim := min(n0, n1)
	for p < lim && b0[p] == b1[p] {
		p++
	}
	// Do not count an appended newline as part of the prefix.
	if c.opt.Robust && (n0-m0 < p) != (n1-m1 < p) {
		p--
	}
	hor := c.opt.Horizon
	for p != 0 {
		if b0[p-1] == '\n' {
			if hor == 0 {
				break
			}
			hor--
		}
		p--
	}
	c.prefixEnd = [2]int{p, p}

	s0, s1 := n0, n1
	if !c.opt.Robust || m0 == m1 {
		end0 := s0
		beg0 := p
		if n0 >= n1 {
			beg0 += n0 - n1
		}
		for s0 != beg0 {
			s0--
			s1--
			if b0[s0] != b1[s1] {
				s0++
				s1++
				beg0 = s0
				break
			}
		}
		i := c.opt.Horizon
		if !((s0 == 0 || b0[s0-1] == '\n') && (s1 == 0 || b1[s1-1] == '\n')) {
			i++
		}
		for ; i > 0 && s0 != end0; i-- {
			if k := bytes.IndexByte(b0[s0:], '\n'); k >= 0 {
				s0 += k + 1
			} else {
				s0 = end0
			}
		}
		s1 += s0 - beg0
	}
	c.suffixBegin = [2]int{s0, s1}
}

// splitLines records the line starts of f and which lines lie between
// prefixEnd and suffixBegin.
func (f *File) splitLines(robust bool, prefixEnd, suffixBegin int, r *region) {
	d := f.Data
	n := bytes.Count(d, []byte{'\n'})
	starts := make([]int, 0, n+1)
	r.first, r.n = -1, 0
	for p := 0; p < len(d); {
		if p == prefixEnd {
			r.first = len(starts)
		}
		if p >= prefixEnd && p < suffixBegin {
			r.n++
		}
		starts = append(starts, p)
		k := bytes.IndexByte(d[p:], '\n')
		p += k + 1
	}
	if r.first < 0 {
		r.first = len(starts)
	}
	end := len(d)
	if f.MissingNewline && robust {
		end--
	}
	starts = append(starts, end)
	f.starts = starts
	f.Prefix = r.first
}

// classify puts every analysed line in an equivalence class shared by
// both files.
func (c *comparison) classify() {
	classes := make(map[string]int)
	incomplete := make(map[string]int)
	norm := newNormalizer(c.opt)
	next := 1 // class 0 is never used, as in GNU diff
	for fi, f := range c.f {
		r := c.region[fi]
		eq := make([]int, r.n)
		for k := 0; k < r.n; k++ {
			i := r.first + k
			line := f.Data[f.starts[i]:]
			nl := bytes.IndexByte(line, '\n')
			line = line[:nl]
			m := classes
			if f.MissingNewline && c.opt.Robust && i == f.NumLines()-1 && c.opt.WhiteSpace < TrailingSpace {
				m = incomplete
			}
			key := norm.key(line)
			id, ok := m[string(key)]
			if !ok {
				id = next
				next++
				m[string(key)] = id
			}
			eq[k] = id
		}
		c.equivs[fi] = eq
	}
	c.nclass = next
}

// normalizer maps a line to a key that is equal for lines GNU diff's
// lines_differ considers equal.
type normalizer struct {
	opt Options
	buf []byte
}

func newNormalizer(opt Options) *normalizer { return &normalizer{opt: opt} }

func isSpace(b byte) bool {
	return b == ' ' || (b >= '\t' && b <= '\r')
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func (n *normalizer) key(line []byte) []byte {
	o := n.opt
	if o.WhiteSpace == NoWhiteSpace && !o.IgnoreCase {
		return line
	}
	b := n.buf[:0]
	switch o.WhiteSpace {
	case AllSpace:
		for _, ch := range line {
			if !isSpace(ch) {
				b = append(b, ch)
			}
		}
	case SpaceChange:
		for i := 0; i < len(line); {
			if isSpace(line[i]) {
				j := i
				for j < len(line) && isSpace(line[j]) {
					j++
				}
				if j < len(line) {
					b = append(b, ' ')
				}
				i = j
				continue
			}
			b = append(b, line[i])
			i++
		}
	case TrailingSpace, TabExpansion, TabExpansionAndTrailingSpace:
		l := line
		if o.WhiteSpace != TabExpansion {
			e := len(l)
			for e > 0 && isSpace(l[e-1]) {
				e--
			}
			l = l[:e]
		}
		if o.WhiteSpace != TabExpansion {
			// GNU diff 3.8's lines_differ never reaches its tab expansion
			// check with -Z: tab and space are both white space there, so
			// -E -Z compares as -Z alone.
			b = append(b, l...)
			break
		}
		col := 0
		for _, ch := range l {
			if ch == '\t' {
				k := o.TabSize - col%o.TabSize
				for ; k > 0; k-- {
					b = append(b, ' ')
				}
				col += o.TabSize - col%o.TabSize
				continue
			}
			b = append(b, ch)
			col++
		}
	default:
		b = append(b, line...)
	}
	if o.IgnoreCase {
		for i, ch := range b {
			b[i] = lower(ch)
		}
	}
	n.buf = b
	return b
}

// discardConfusingLines marks lines that match nothing in the other file
// as changed, and leaves them (and runs of very frequent lines among
// them) out of the comparison proper.
func (c *comparison) discardConfusingLines() {
	var count [2][]int
	for f := 0; f < 2; f++ {
		count[f] = make([]int, c.nclass)
		for _, e := range c.equivs[f] {
			count[f][e]++
		}
		c.changed[f] = make([]bool, c.region[f].n+2)
	}
	var discards [2][]byte
	for f := 0; f < 2; f++ {
		end := c.region[f].n
		d := make([]byte, end)
		counts := count[1-f]
		many := 5
		for tem := end >> 6; ; {
			tem >>= 2
			if tem <= 0 {
				break
			}
			many *= 2
		}
		for i, e := range c.equivs[f] {
			if e == 0 {
				continue
			}
			switch nm := counts[e]; {
			case nm == 0:
				d[i] = 1
			case nm > many:
				d[i] = 2
			}
		}
		discards[f] = d
	}
	for f := 0; f < 2; f++ {
		d := discards[f]
		end := len(d)
		for i := 0; i < end; i++ {
			if d[i] == 2 {
				d[i] = 0
				continue
			}
			if d[i] == 0 {
				continue
			}
			// A run of discardable lines starting with a sure one.
			j := i
			provisional := 0
			for ; j < end && d[j] != 0; j++ {
				if d[j] == 2 {
					provisional++
				}
			}
			for j > i && d[j-1] == 2 {
				j--
				d[j] = 0
				provisional--
			}
			length := j - i
			if provisional*4 > length {
				for j > i {
					j--
					if d[j] == 2 {
						d[j] = 0
					}
				}
				continue
			}
			minimum := 1
			for tem := length >> 2; ; {
				tem >>= 2
				if tem <= 0 {
					break
				}
				minimum <<= 1
			}
			minimum++
			consec := 0
			for j = 0; j < length; j++ {
				if d[i+j] != 2 {
					consec = 0
				} else if consec++; consec == minimum {
					j -= consec
				} else if consec > minimum {
					d[i+j] = 0
				}
			}
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && d[i+j] == 1 {
					break
				}
				if d[i+j] == 2 {
					consec = 0
					d[i+j] = 0
				} else if d[i+j] == 0 {
					consec = 0
				} else {
					consec++
				}
				if consec == 3 {
					break
				}
			}
			i += length - 1
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && d[i-j] == 1 {
					break
				}
				if d[i-j] == 2 {
					consec = 0
					d[i-j] = 0
				} else if d[i-j] == 0 {
					consec = 0
				} else {
					consec++
				}
				if consec == 3 {
					break
				}
			}
		}
	}
	for f := 0; f < 2; f++ {
		d := discards[f]
		und := make([]int32, 0, len(d))
		real := make([]int, 0, len(d))
		for i, e := range c.equivs[f] {
			if c.opt.Minimal || d[i] == 0 {
				und = append(und, int32(e))
				real = append(real, i)
			} else {
				c.changed[f][i+1] = true
			}
		}
		c.undisc[f] = und
		c.realIdx[f] = real
	}
}

func (c *comparison) runCompare() {
	n0, n1 := len(c.undisc[0]), len(c.undisc[1])
	diags := n0 + n1 + 3
	c.fd = make([]int32, diags)
	c.bd = make([]int32, diags)
	c.doff = n1 + 1
	te := 1
	for d := diags; d != 0; d >>= 2 {
		te <<= 1
	}
	c.tooExpens = max(4096, te)
	c.compareseq(0, n0, 0, n1, c.opt.Minimal)
}

const snakeLimit = 20

// shiftBoundaries slides runs of changes over identical lines so that
// they merge with neighbouring runs, move as far down as they can, and
// then back up to line up with a run of changes in the other file.
func (c *comparison) shiftBoundaries() {
	for f := 0; f < 2; f++ {
		ch := c.changed[f][1:] // ch[-1] is the sentinel at changed[f][0]
		chg := func(i int) bool { return c.changed[f][i+1] }
		oth := func(j int) bool { return c.changed[1-f][j+1] }
		eq := c.equivs[f]
		iEnd := c.region[f].n
		i, j := 0, 0
		for {
			for i < iEnd && !chg(i) {
				for oth(j) {
					j++
				}
				j++
				i++
			}
			if i == iEnd {
				break
			}
			start := i
			i++
			for chg(i) {
				i++
			}
			for oth(j) {
				j++
			}
			var runlength, corresponding int
			for {
				runlength = i - start
				for start != 0 && eq[start-1] == eq[i-1] {
					start--
					ch[start] = true
					i--
					ch[i] = false
					for chg(start - 1) {
						start--
					}
					j--
					for oth(j) {
						j--
					}
				}
				if oth(j - 1) {
					corresponding = i
				} else {
					corresponding = iEnd
				}
				for i != iEnd && eq[start] == eq[i] {
					ch[start] = false
					start++
					ch[i] = true
					i++
					for chg(i) {
						i++
					}
					j++
					for oth(j) {
						j++
						corresponding = i
					}
				}
				if runlength == i-start {
					break
				}
			}
			for corresponding < i {
				start--
				ch[start] = true
				i--
				ch[i] = false
				j--
				for oth(j) {
					j--
				}
			}
		}
	}
}

// buildScript turns the change flags into a forward list of changes with
// absolute line numbers.
func (c *comparison) buildScript() []Change {
	var script []Change
	ch0, ch1 := c.changed[0][1:], c.changed[1][1:]
	n0, n1 := c.region[0].n, c.region[1].n
	p0, p1 := c.region[0].first, c.region[1].first
	i0, i1 := 0, 0
	for i0 < n0 || i1 < n1 {
		if ch0[i0] || ch1[i1] {
			l0, l1 := i0, i1
			for ch0[i0] {
				i0++
			}
			for ch1[i1] {
				i1++
			}
			script = append(script, Change{Line0: l0 + p0, Line1: l1 + p1, Deleted: i0 - l0, Inserted: i1 - l1})
		}
		i0++
		i1++
	}
	return script
}
