package git

// This file computes line diffs the way git's xdiff does with its default
// options (Myers with git's cost heuristics, the discarding of lines that
// cannot match, change compaction and the indent heuristic), so that hunks
// come out identical to git's.

const (
	xdlMaxCostMin  = 256
	xdlHeurMinCost = 256
	xdlSnakeCnt    = 20
	xdlKHeur       = 4
	xdlMaxEqLimit  = 1024
	xdlSimscanWin  = 100
	xdlKpdisRun    = 4
	xdlLineMax     = int(^uint(0) >> 2)
)

// xfile is one side of a diff.
type xfile struct {
	recs         [][]byte // lines, with their '\n'
	ha           []int    // class of each line
	rchg         []bool   // changed flags, with a sentinel before and after: rchg[i+1] is line i
	dstart, dend int
	// reduced view for the Myers pass
	rindex []int
	rha    []int
}

func (f *xfile) chg(i int) bool {
	i++
	return i >= 0 && i < len(f.rchg) && f.rchg[i]
}
func (f *xfile) setChg(i int, v bool) { f.rchg[i+1] = v }
func (f *xfile) nrec() int            { return len(f.recs) }

// splitLines cuts data into records, each keeping its '\n'.
func splitLines(data []byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	n := 0
	for _, c := range data {
		if c == '\n' {
			n++
		}
	}
	recs := make([][]byte, 0, n+1)
	start := 0
	for i, c := range data {
		if c == '\n' {
			recs = append(recs, data[start:i+1])
			start = i + 1
		}
	}
	if start < len(data) {
		recs = append(recs, data[start:])
	}
	return recs
}

// xchange is one change: lines [i1, i1+chg1) of the old side replaced by
// [i2, i2+chg2) of the new.
type xchange struct {
	i1, chg1, i2, chg2 int
}

// xdiffResult holds both sides and the changes.
type xdiffResult struct {
	a, b    *xfile
	changes []xchange
}

// Whitespace handling (-w, -b, --ignore-space-at-eol): lines compare
// through a key with whitespace removed, collapsed or trimmed.
const (
	wsIgnoreAll = 1 << iota
	wsIgnoreChange
	wsIgnoreAtEOL
)

// xdiff computes the changes between a and b.
func xdiff(a, b []byte) *xdiffResult {
	return xdiffRecs(splitLines(a), splitLines(b))
}

// xdiffWS is xdiff with whitespace flags.
func xdiffWS(a, b []byte, ws int) *xdiffResult {
	return xdiffRecsWS(splitLines(a), splitLines(b), ws)
}

func isWS(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// wsKey is the comparison key of a line under whitespace flags.
func wsKey(rec []byte, ws int) string {
	switch {
	case ws&wsIgnoreAll != 0:
		b := make([]byte, 0, len(rec))
		for _, c := range rec {
			if !isWS(c) {
				b = append(b, c)
			}
		}
		return string(b)
	case ws&wsIgnoreChange != 0:
		b := make([]byte, 0, len(rec))
		for i := 0; i < len(rec); i++ {
			if isWS(rec[i]) {
				for i+1 < len(rec) && isWS(rec[i+1]) {
					i++
				}
				b = append(b, ' ')
				continue
			}
			b = append(b, rec[i])
		}
		for len(b) > 0 && b[len(b)-1] == ' ' {
			b = b[:len(b)-1]
		}
		return string(b)
	case ws&wsIgnoreAtEOL != 0:
		end := len(rec)
		for end > 0 && isWS(rec[end-1]) {
			end--
		}
		return string(rec[:end])
	}
	return string(rec)
}

func xdiffRecs(ra, rb [][]byte) *xdiffResult { return xdiffRecsWS(ra, rb, 0) }

func xdiffRecsWS(ra, rb [][]byte, ws int) *xdiffResult {
	f1 := &xfile{recs: ra}
	f2 := &xfile{recs: rb}
	// Classify lines: equal content, equal class.
	classes := make(map[string]int, len(ra)+len(rb))
	var len1, len2 []int
	classify := func(f *xfile, side int) {
		f.ha = make([]int, len(f.recs))
		for i, rec := range f.recs {
			key := string(rec)
			if ws != 0 {
				key = wsKey(rec, ws)
			}
			c, ok := classes[key]
			if !ok {
				c = len(len1)
				classes[key] = c
				len1 = append(len1, 0)
				len2 = append(len2, 0)
			}
			if side == 1 {
				len1[c]++
			} else {
				len2[c]++
			}
			f.ha[i] = c
		}
		f.rchg = make([]bool, len(f.recs)+2)
	}
	classify(f1, 1)
	classify(f2, 2)

	trimEnds(f1, f2)
	cleanupRecords(f1, f2, len1, len2)

	// Myers on the reduced sequences.
	n1, n2 := len(f1.rindex), len(f2.rindex)
	ndiags := n1 + n2 + 3
	kvd := make([]int, 2*ndiags+2)
	env := &xdenv{
		kvdf:     kvd[:ndiags],
		kvdb:     kvd[ndiags:],
		off:      n2 + 1,
		snakeCnt: xdlSnakeCnt,
		heurMin:  xdlHeurMinCost,
	}
	env.mxcost = bogosqrt(ndiags)
	if env.mxcost < xdlMaxCostMin {
		env.mxcost = xdlMaxCostMin
	}
	env.f1, env.f2 = f1, f2
	env.recsCmp(0, n1, 0, n2, false)

	changeCompact(f1, f2)
	changeCompact(f2, f1)

	return &xdiffResult{a: f1, b: f2, changes: buildScript(f1, f2)}
}

func bogosqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

func trimEnds(f1, f2 *xfile) {
	lim := min(len(f1.recs), len(f2.recs))
	i := 0
	for ; i < lim; i++ {
		if f1.ha[i] != f2.ha[i] {
			break
		}
	}
	f1.dstart, f2.dstart = i, i
	lim -= i
	j := 0
	for ; j < lim; j++ {
		if f1.ha[len(f1.recs)-1-j] != f2.ha[len(f2.recs)-1-j] {
			break
		}
	}
	f1.dend = len(f1.recs) - j - 1
	f2.dend = len(f2.recs) - j - 1
}

func cleanMmatch(dis []byte, i, s, e int) bool {
	if i-s > xdlSimscanWin {
		s = i - xdlSimscanWin
	}
	if e-i > xdlSimscanWin {
		e = i + xdlSimscanWin
	}
	rdis0, rpdis0 := 0, 1
	for r := 1; i-r >= s; r++ {
		if dis[i-r] == 0 {
			rdis0++
		} else if dis[i-r] == 2 {
			rpdis0++
		} else {
			break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rdis1, rpdis1 := 0, 1
	for r := 1; i+r <= e; r++ {
		if dis[i+r] == 0 {
			rdis1++
		} else if dis[i+r] == 2 {
			rpdis1++
		} else {
			break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*xdlKpdisRun < rpdis1+rdis1
}

func cleanupRecords(f1, f2 *xfile, len1, len2 []int) {
	dis1 := make([]byte, len(f1.recs)+1)
	dis2 := make([]byte, len(f2.recs)+1)
	mlim := bogosqrt(len(f1.recs))
	if mlim > xdlMaxEqLimit {
		mlim = xdlMaxEqLimit
	}
	for i := f1.dstart; i <= f1.dend; i++ {
		nm := len2[f1.ha[i]]
		switch {
		case nm == 0:
			dis1[i] = 0
		case nm >= mlim:
			dis1[i] = 2
		default:
			dis1[i] = 1
		}
	}
	mlim = bogosqrt(len(f2.recs))
	if mlim > xdlMaxEqLimit {
		mlim = xdlMaxEqLimit
	}
	for i := f2.dstart; i <= f2.dend; i++ {
		nm := len1[f2.ha[i]]
		switch {
		case nm == 0:
			dis2[i] = 0
		case nm >= mlim:
			dis2[i] = 2
		default:
			dis2[i] = 1
		}
	}
	for i := f1.dstart; i <= f1.dend; i++ {
		if dis1[i] == 1 || (dis1[i] == 2 && !cleanMmatch(dis1, i, f1.dstart, f1.dend)) {
			f1.rindex = append(f1.rindex, i)
			f1.rha = append(f1.rha, f1.ha[i])
		} else {
			f1.setChg(i, true)
		}
	}
	for i := f2.dstart; i <= f2.dend; i++ {
		if dis2[i] == 1 || (dis2[i] == 2 && !cleanMmatch(dis2, i, f2.dstart, f2.dend)) {
			f2.rindex = append(f2.rindex, i)
			f2.rha = append(f2.rha, f2.ha[i])
		} else {
			f2.setChg(i, true)
		}
	}
}

type xdenv struct {
	f1, f2     *xfile
	kvdf, kvdb []int
	off        int // index offset of diagonal 0 in kvdf/kvdb
	mxcost     int
	snakeCnt   int
	heurMin    int
}

type xdsplit struct {
	i1, i2       int
	minLo, minHi bool
}

func (x *xdenv) recsCmp(off1, lim1, off2, lim2 int, needMin bool) {
	ha1, ha2 := x.f1.rha, x.f2.rha
	for off1 < lim1 && off2 < lim2 && ha1[off1] == ha2[off2] {
		off1++
		off2++
	}
	for off1 < lim1 && off2 < lim2 && ha1[lim1-1] == ha2[lim2-1] {
		lim1--
		lim2--
	}
	switch {
	case off1 == lim1:
		for ; off2 < lim2; off2++ {
			x.f2.setChg(x.f2.rindex[off2], true)
		}
	case off2 == lim2:
		for ; off1 < lim1; off1++ {
			x.f1.setChg(x.f1.rindex[off1], true)
		}
	default:
		var spl xdsplit
		x.split(off1, lim1, off2, lim2, needMin, &spl)
		x.recsCmp(off1, spl.i1, off2, spl.i2, spl.minLo)
		x.recsCmp(spl.i1, lim1, spl.i2, lim2, spl.minHi)
	}
}

func (x *xdenv) split(off1, lim1, off2, lim2 int, needMin bool, spl *xdsplit) {
	ha1, ha2 := x.f1.rha, x.f2.rha
	kvdf, kvdb, o := x.kvdf, x.kvdb, x.off
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid

	kvdf[o+fmid] = off1
	kvdb[o+bmid] = lim1

	for ec := 1; ; ec++ {
		gotSnake := false

		if fmin > dmin {
			fmin--
			kvdf[o+fmin-1] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			kvdf[o+fmax+1] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			var i1 int
			if kvdf[o+d-1] >= kvdf[o+d+1] {
				i1 = kvdf[o+d-1] + 1
			} else {
				i1 = kvdf[o+d+1]
			}
			prev1 := i1
			i2 := i1 - d
			for i1 < lim1 && i2 < lim2 && ha1[i1] == ha2[i2] {
				i1++
				i2++
			}
			if i1-prev1 > x.snakeCnt {
				gotSnake = true
			}
			kvdf[o+d] = i1
			if odd && bmin <= d && d <= bmax && kvdb[o+d] <= i1 {
				spl.i1, spl.i2 = i1, i2
				spl.minLo, spl.minHi = true, true
				return
			}
		}

		if bmin > dmin {
			bmin--
			kvdb[o+bmin-1] = xdlLineMax
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			kvdb[o+bmax+1] = xdlLineMax
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			var i1 int
			if kvdb[o+d-1] < kvdb[o+d+1] {
				i1 = kvdb[o+d-1]
			} else {
				i1 = kvdb[o+d+1] - 1
			}
			prev1 := i1
			i2 := i1 - d
			for i1 > off1 && i2 > off2 && ha1[i1-1] == ha2[i2-1] {
				i1--
				i2--
			}
			if prev1-i1 > x.snakeCnt {
				gotSnake = true
			}
			kvdb[o+d] = i1
			if !odd && fmin <= d && d <= fmax && i1 <= kvdf[o+d] {
				spl.i1, spl.i2 = i1, i2
				spl.minLo, spl.minHi = true, true
				return
			}
		}

		if needMin {
			continue
		}

		if gotSnake && ec > x.heurMin {
			best := 0
			for d := fmax; d >= fmin; d -= 2 {
				dd := d - fmid
				if dd < 0 {
					dd = -dd
				}
				i1 := kvdf[o+d]
				i2 := i1 - d
				v := (i1 - off1) + (i2 - off2) - dd
				if v > xdlKHeur*ec && v > best &&
					off1+x.snakeCnt <= i1 && i1 < lim1 &&
					off2+x.snakeCnt <= i2 && i2 < lim2 {
					for k := 1; ha1[i1-k] == ha2[i2-k]; k++ {
						if k == x.snakeCnt {
							best = v
							spl.i1, spl.i2 = i1, i2
							break
						}
					}
				}
			}
			if best > 0 {
				spl.minLo, spl.minHi = true, false
				return
			}
			best = 0
			for d := bmax; d >= bmin; d -= 2 {
				dd := d - bmid
				if dd < 0 {
					dd = -dd
				}
				i1 := kvdb[o+d]
				i2 := i1 - d
				v := (lim1 - i1) + (lim2 - i2) - dd
				if v > xdlKHeur*ec && v > best &&
					off1 < i1 && i1 <= lim1-x.snakeCnt &&
					off2 < i2 && i2 <= lim2-x.snakeCnt {
					for k := 0; ha1[i1+k] == ha2[i2+k]; k++ {
						if k == x.snakeCnt-1 {
							best = v
							spl.i1, spl.i2 = i1, i2
							break
						}
					}
				}
			}
			if best > 0 {
				spl.minLo, spl.minHi = false, true
				return
			}
		}

		if ec >= x.mxcost {
			fbest, fbest1 := -1, -1
			for d := fmax; d >= fmin; d -= 2 {
				i1 := min(kvdf[o+d], lim1)
				i2 := i1 - d
				if lim2 < i2 {
					i1, i2 = lim2+d, lim2
				}
				if fbest < i1+i2 {
					fbest = i1 + i2
					fbest1 = i1
				}
			}
			bbest, bbest1 := xdlLineMax, xdlLineMax
			for d := bmax; d >= bmin; d -= 2 {
				i1 := max(off1, kvdb[o+d])
				i2 := i1 - d
				if i2 < off2 {
					i1, i2 = off2+d, off2
				}
				if i1+i2 < bbest {
					bbest = i1 + i2
					bbest1 = i1
				}
			}
			if (lim1+lim2)-bbest < fbest-(off1+off2) {
				spl.i1, spl.i2 = fbest1, fbest-fbest1
				spl.minLo, spl.minHi = true, false
			} else {
				spl.i1, spl.i2 = bbest1, bbest-bbest1
				spl.minLo, spl.minHi = false, true
			}
			return
		}
	}
}

// ---- change compaction and the indent heuristic ----

const (
	maxIndent                       = 200
	maxBlanks                       = 20
	startOfFilePenalty              = 1
	endOfFilePenalty                = 21
	totalBlankWeight                = -30
	postBlankWeight                 = 6
	relativeIndentPenalty           = -4
	relativeIndentWithBlankPenalty  = 10
	relativeOutdentPenalty          = 24
	relativeOutdentWithBlankPenalty = 17
	relativeDedentPenalty           = 23
	relativeDedentWithBlankPenalty  = 17
	indentWeight                    = 60
	indentHeuristicMaxSliding       = 100
)

func buildScript(f1, f2 *xfile) []xchange {
	var rev []xchange
	i1, i2 := f1.nrec(), f2.nrec()
	for i1 >= 0 || i2 >= 0 {
		if f1.chg(i1-1) || f2.chg(i2-1) {
			l1, l2 := i1, i2
			for f1.chg(i1 - 1) {
				i1--
			}
			for f2.chg(i2 - 1) {
				i2--
			}
			rev = append(rev, xchange{i1: i1, chg1: l1 - i1, i2: i2, chg2: l2 - i2})
		}
		i1--
		i2--
	}
	out := make([]xchange, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}
