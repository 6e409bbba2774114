package git

import (
	"bytes"
	"iter"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// This file draws the --graph column display the way git's graph.c does:
// one column per line of history in flight, a state machine emitting the
// commit row, post-merge rows and the rows that collapse columns.

type graphState int

const (
	gPadding graphState = iota
	gSkip
	gPreCommit
	gCommit
	gPostMerge
	gCollapsing
)

type graphColumn struct {
	commit plumbing.Hash
}

type graph struct {
	commit        *commit
	parents       []plumbing.Hash // interesting parents
	width         int
	expansionRow  int
	state         graphState
	prevState     graphState
	commitIndex   int
	prevCommitIdx int
	mergeLayout   int
	edgesAdded    int
	prevEdges     int
	columns       []graphColumn
	newColumns    []graphColumn
	mapping       []int
	oldMapping    []int
	mappingSize   int
	interesting   map[plumbing.Hash]bool
}

func newGraph(shown map[plumbing.Hash]bool) *graph {
	return &graph{state: gPadding, prevState: gPadding, interesting: shown}
}

func (gr *graph) update(c *commit, firstParent bool) {
	gr.commit = c
	gr.parents = nil
	for _, p := range c.parents {
		if gr.interesting != nil && !gr.interesting[p] {
			continue
		}
		dup := false
		for _, q := range gr.parents {
			if q == p {
				dup = true
			}
		}
		if !dup {
			gr.parents = append(gr.parents, p)
		}
		if firstParent {
			break
		}
	}
	gr.prevCommitIdx = gr.commitIndex
	gr.updateColumns()
	gr.expansionRow = 0
	if gr.state != gPadding {
		gr.state = gSkip
	} else if gr.needsPreCommit() {
		gr.state = gPreCommit
	} else {
		gr.state = gCommit
	}
}

func (gr *graph) needsPreCommit() bool {
	return len(gr.parents) >= 3 && gr.commitIndex < len(gr.columns)-1 && gr.expansionRow < len(gr.parents)-2
}

func (gr *graph) findNewColumn(h plumbing.Hash) int {
	for i, c := range gr.newColumns {
		if c.commit == h {
			return i
		}
	}
	return -1
}

func (gr *graph) insertIntoNewColumns(h plumbing.Hash, idx int) {
	i := gr.findNewColumn(h)
	if i < 0 {
		i = len(gr.newColumns)
		gr.newColumns = append(gr.newColumns, graphColumn{commit: h})
	}
	var mappingIdx int
	switch {
	case len(gr.parents) > 1 && idx > -1 && gr.mergeLayout == -1:
		dist := idx - i
		shift := 1
		if dist > 1 {
			shift = 2*dist - 3
		}
		if dist > 0 {
			gr.mergeLayout = 0
		} else {
			gr.mergeLayout = 1
		}
		gr.edgesAdded = len(gr.parents) + gr.mergeLayout - 2
		mappingIdx = gr.width + (gr.mergeLayout-1)*shift
		gr.width += 2 * gr.mergeLayout
	case gr.edgesAdded > 0 && gr.width >= 2 && i == gr.mapping[gr.width-2]:
		mappingIdx = gr.width - 2
		gr.edgesAdded = -1
	default:
		mappingIdx = gr.width
		gr.width += 2
	}
	for mappingIdx >= len(gr.mapping) {
		gr.mapping = append(gr.mapping, -1)
	}
	if mappingIdx >= 0 {
		gr.mapping[mappingIdx] = i
	}
}

func (gr *graph) updateColumns() {
	gr.columns, gr.newColumns = gr.newColumns, gr.columns[:0]
	maxNew := len(gr.columns) + len(gr.parents)
	gr.mappingSize = 2 * maxNew
	if len(gr.mapping) < gr.mappingSize {
		gr.mapping = make([]int, gr.mappingSize)
	}
	if len(gr.oldMapping) < gr.mappingSize {
		old := make([]int, gr.mappingSize)
		copy(old, gr.oldMapping)
		gr.oldMapping = old
	}
	for i := range gr.mapping {
		gr.mapping[i] = -1
	}
	gr.width = 0
	gr.prevEdges = gr.edgesAdded
	gr.edgesAdded = 0
	for i, colCommit := range gr.columnCommits() {
		if colCommit == gr.commit.hash {
			gr.commitIndex = i
			gr.mergeLayout = -1
			for _, p := range gr.parents {
				gr.insertIntoNewColumns(p, i)
			}
			if len(gr.parents) == 0 {
				gr.width += 2
			}
		} else {
			gr.insertIntoNewColumns(colCommit, -1)
		}
	}
	for gr.mappingSize > 1 && gr.mapping[gr.mappingSize-1] < 0 {
		gr.mappingSize--
	}
}

func (gr *graph) setState(s graphState) {
	gr.prevState = gr.state
	gr.state = s
}

func (gr *graph) mappingCorrect() bool {
	for i := 0; i < gr.mappingSize; i++ {
		t := gr.mapping[i]
		if t < 0 {
			continue
		}
		if t == i/2 {
			continue
		}
		return false
	}
	return true
}

// line is one row being built; width counts display columns.
type graphLine struct {
	b     *bytes.Buffer
	width int
}

func (l *graphLine) add(c byte) {
	l.b.WriteByte(c)
	l.width++
}

func (l *graphLine) addN(c byte, n int) {
	for i := 0; i < n; i++ {
		l.add(c)
	}
}

func (gr *graph) padHorizontally(l *graphLine) {
	if l.width < gr.width {
		l.addN(' ', gr.width-l.width)
	}
}

func (gr *graph) outputPaddingLine(l *graphLine) {
	for range gr.newColumns {
		l.add('|')
		l.add(' ')
	}
}

func (gr *graph) outputSkipLine(l *graphLine) {
	l.b.WriteString("...")
	l.width += 3
	if gr.needsPreCommit() {
		gr.setState(gPreCommit)
	} else {
		gr.setState(gCommit)
	}
}

func (gr *graph) outputPreCommitLine(l *graphLine) {
	numExpansion := (len(gr.parents) - 2) * 2
	seenThis := false
	for i := range gr.columns {
		col := gr.columns[i]
		if col.commit == gr.commit.hash {
			seenThis = true
			l.add('|')
			l.addN(' ', gr.expansionRow)
		} else if seenThis && gr.expansionRow == 0 {
			if gr.prevState == gPostMerge && gr.prevCommitIdx < i {
				l.add('\\')
			} else {
				l.add('|')
			}
		} else if seenThis && gr.expansionRow > 0 {
			l.add('\\')
		} else {
			l.add('|')
		}
		l.add(' ')
	}
	gr.expansionRow++
	if !gr.needsPreCommit() || gr.expansionRow >= numExpansion {
		gr.setState(gCommit)
	}
}

// drawOctopusMerge draws the dashes of a merge with three or more
// parents.
func (gr *graph) drawOctopusMerge(l *graphLine) {
	dashed := len(gr.parents) + gr.mergeLayout - 3
	for i := 0; i < dashed; i++ {
		l.add('-')
		if i == dashed-1 {
			l.add('.')
		} else {
			l.add('-')
		}
	}
}

// columnCommits yields each column's commit and then, when no column holds
// the commit being drawn, that commit at the index past the last column,
// where git draws a new column for it.
func (gr *graph) columnCommits() iter.Seq2[int, plumbing.Hash] {
	return func(yield func(int, plumbing.Hash) bool) {
		seen := false
		for i := 0; i < len(gr.columns); i++ {
			c := gr.columns[i].commit
			seen = seen || c == gr.commit.hash
			if !yield(i, c) {
				return
			}
		}
		if !seen {
			yield(len(gr.columns), gr.commit.hash)
		}
	}
}

func (gr *graph) outputCommitLine(l *graphLine) {
	seenThis := false
	for i, colCommit := range gr.columnCommits() {
		switch {
		case colCommit == gr.commit.hash:
			seenThis = true
			l.add('*')
			if len(gr.parents) > 2 {
				gr.drawOctopusMerge(l)
			}
		case seenThis && gr.edgesAdded > 1:
			l.add('\\')
		case seenThis && gr.edgesAdded == 1:
			if gr.prevState == gPostMerge && gr.prevEdges > 0 && gr.prevCommitIdx < i {
				l.add('\\')
			} else {
				l.add('|')
			}
		case gr.prevState == gCollapsing && 2*i+1 < len(gr.oldMapping) && gr.oldMapping[2*i+1] == i && 2*i < len(gr.mapping) && gr.mapping[2*i] < i:
			l.add('/')
		default:
			l.add('|')
		}
		l.add(' ')
	}
	switch {
	case len(gr.parents) > 1:
		gr.setState(gPostMerge)
	case gr.mappingCorrect():
		gr.setState(gPadding)
	default:
		gr.setState(gCollapsing)
	}
}

var mergeChars = []byte{'/', '|', '\\'}

func (gr *graph) outputPostMergeLine(l *graphLine) {
	seenThis := false
	var parentCol *graphColumn
	first := gr.parents[0]
	for i, colCommit := range gr.columnCommits() {
		switch {
		case colCommit == gr.commit.hash:
			seenThis = true
			idx := gr.mergeLayout
			for j := range gr.parents {
				c := mergeChars[idx]
				l.add(c)
				if idx == 2 {
					if gr.edgesAdded > 0 || j < len(gr.parents)-1 {
						l.add(' ')
					}
				} else {
					idx++
				}
			}
			if gr.edgesAdded == 0 {
				l.add(' ')
			}
		case seenThis:
			if gr.edgesAdded > 0 {
				l.add('\\')
			} else {
				l.add('|')
			}
			l.add(' ')
		default:
			l.add('|')
			if gr.mergeLayout != 0 || i != gr.commitIndex-1 {
				if parentCol != nil {
					l.add('_')
				} else {
					l.add(' ')
				}
			}
		}
		if i < len(gr.columns) && colCommit == first {
			parentCol = &gr.columns[i]
		}
	}
	if gr.mappingCorrect() {
		gr.setState(gPadding)
	} else {
		gr.setState(gCollapsing)
	}
}

func (gr *graph) outputCollapsingLine(l *graphLine) {
	usedHorizontal := false
	horizontalEdge, horizontalTarget := -1, -1
	gr.mapping, gr.oldMapping = gr.oldMapping, gr.mapping
	for len(gr.mapping) < gr.mappingSize {
		gr.mapping = append(gr.mapping, -1)
	}
	for i := 0; i < gr.mappingSize; i++ {
		gr.mapping[i] = -1
	}
	for i := 0; i < gr.mappingSize; i++ {
		target := gr.oldMapping[i]
		if target < 0 {
			continue
		}
		switch {
		case target*2 == i:
			gr.mapping[i] = target
		case i > 0 && gr.mapping[i-1] < 0:
			gr.mapping[i-1] = target
			if horizontalEdge == -1 {
				horizontalEdge = i
				horizontalTarget = target
				for j := target*2 + 3; j < i-2; j += 2 {
					gr.mapping[j] = target
				}
			}
		case i > 0 && gr.mapping[i-1] == target:
		default:
			if i >= 2 {
				gr.mapping[i-2] = target
			}
			if horizontalEdge == -1 {
				horizontalTarget = target
				horizontalEdge = i - 1
				for j := target*2 + 3; j < i-2; j += 2 {
					gr.mapping[j] = target
				}
			}
		}
	}
	copy(gr.oldMapping, gr.mapping[:gr.mappingSize])
	if gr.mappingSize > 0 && gr.mapping[gr.mappingSize-1] < 0 {
		gr.mappingSize--
	}
	for i := 0; i < gr.mappingSize; i++ {
		target := gr.mapping[i]
		switch {
		case target < 0:
			l.add(' ')
		case target*2 == i:
			l.add('|')
		case target == horizontalTarget && i != horizontalEdge-1:
			if i != target*2+3 {
				gr.mapping[i] = -1
			}
			usedHorizontal = true
			l.add('_')
		default:
			if usedHorizontal && i < horizontalEdge {
				gr.mapping[i] = -1
			}
			l.add('/')
		}
	}
	if gr.mappingCorrect() {
		gr.setState(gPadding)
	}
}

// nextLine writes the next graph row; it reports whether it was the
// commit's own row.
func (gr *graph) nextLine(b *bytes.Buffer) bool {
	l := &graphLine{b: b}
	shown := false
	switch gr.state {
	case gPadding:
		gr.outputPaddingLine(l)
	case gSkip:
		gr.outputSkipLine(l)
	case gPreCommit:
		gr.outputPreCommitLine(l)
	case gCommit:
		gr.outputCommitLine(l)
		shown = true
	case gPostMerge:
		gr.outputPostMergeLine(l)
	case gCollapsing:
		gr.outputCollapsingLine(l)
	}
	gr.padHorizontally(l)
	return shown
}

// paddingLine is the prefix for lines that are not the graph's own (diff
// output, separators).
func (gr *graph) paddingLine(b *bytes.Buffer) {
	if gr.state != gCommit {
		gr.nextLine(b)
		return
	}
	l := &graphLine{b: b}
	for _, col := range gr.columns {
		l.add('|')
		if col.commit == gr.commit.hash && len(gr.parents) > 2 {
			l.addN(' ', (len(gr.parents)-2)*2)
		} else {
			l.add(' ')
		}
	}
	gr.padHorizontally(l)
	gr.prevState = gPadding
}

func (gr *graph) finished() bool { return gr.state == gPadding }

// showCommit writes rows up to and including the commit row (without its
// newline).
func (gr *graph) showCommit(w *bytes.Buffer) {
	if gr.finished() {
		gr.paddingLine(w)
		return
	}
	for !gr.finished() {
		if gr.nextLine(w) {
			return
		}
		w.WriteByte('\n')
	}
}

// showStrbuf writes text whose lines after the first get graph rows.
func (gr *graph) showStrbuf(w *bytes.Buffer, text string) {
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			w.WriteString(text)
			return
		}
		w.WriteString(text[:i+1])
		text = text[i+1:]
		if text != "" {
			gr.nextLine(w)
		}
	}
}

// showRemainder finishes the commit's rows.
func (gr *graph) showRemainder(w *bytes.Buffer) bool {
	if gr.finished() {
		return false
	}
	for {
		gr.nextLine(w)
		if gr.finished() {
			return true
		}
		w.WriteByte('\n')
	}
}

// showCommitMsg writes the message and the rest of the commit's rows.
func (gr *graph) showCommitMsg(w *bytes.Buffer, msg string) {
	gr.showStrbuf(w, msg)
	nl := strings.HasSuffix(msg, "\n")
	if !gr.finished() {
		if !nl {
			w.WriteByte('\n')
		}
		gr.showRemainder(w)
		if nl {
			w.WriteByte('\n')
		}
	}
}

// prefixLines puts the graph padding before each line of text.
func (gr *graph) prefixLines(w *bytes.Buffer, text []byte) {
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		gr.paddingLine(w)
		if i < 0 {
			w.Write(text)
			return
		}
		w.Write(text[:i+1])
		text = text[i+1:]
	}
}

// topoSort orders commits as git's --topo-order does (in graph order):
// children before parents, depth first from the tips in walk order.
func topoSort(list []*commit) []*commit {
	indegree := map[plumbing.Hash]int{}
	for _, c := range list {
		indegree[c.hash] = 1
	}
	for _, c := range list {
		for _, p := range c.parents {
			if indegree[p] > 0 {
				indegree[p]++
			}
		}
	}
	byHash := map[plumbing.Hash]*commit{}
	for _, c := range list {
		byHash[c.hash] = c
	}
	var stack []*commit
	for _, c := range list {
		if indegree[c.hash] == 1 {
			stack = append(stack, c)
		}
	}
	// The tips come out in walk order: reverse so that the first is on top.
	for i, j := 0, len(stack)-1; i < j; i, j = i+1, j-1 {
		stack[i], stack[j] = stack[j], stack[i]
	}
	var out []*commit
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range c.parents {
			if indegree[p] == 0 {
				continue
			}
			indegree[p]--
			if indegree[p] == 1 {
				stack = append(stack, byHash[p])
			}
		}
		indegree[c.hash] = 0
		out = append(out, c)
	}
	return out
}
