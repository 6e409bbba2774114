package git

// Sliding change groups to where git's indent heuristic puts them.

type xgroup struct{ start, end int }

func groupInit(f *xfile, g *xgroup) {
	g.start, g.end = 0, 0
	for f.chg(g.end) {
		g.end++
	}
}

func groupNext(f *xfile, g *xgroup) bool {
	if g.end == f.nrec() {
		return false
	}
	g.start = g.end + 1
	g.end = g.start
	for f.chg(g.end) {
		g.end++
	}
	return true
}

func groupPrevious(f *xfile, g *xgroup) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	g.start = g.end
	for f.chg(g.start - 1) {
		g.start--
	}
	return true
}

func groupSlideDown(f *xfile, g *xgroup) bool {
	if g.end < f.nrec() && f.ha[g.start] == f.ha[g.end] {
		f.setChg(g.start, false)
		g.start++
		f.setChg(g.end, true)
		g.end++
		for f.chg(g.end) {
			g.end++
		}
		return true
	}
	return false
}

func groupSlideUp(f *xfile, g *xgroup) bool {
	if g.start > 0 && f.ha[g.start-1] == f.ha[g.end-1] {
		g.start--
		f.setChg(g.start, true)
		g.end--
		f.setChg(g.end, false)
		for f.chg(g.start - 1) {
			g.start--
		}
		return true
	}
	return false
}

func getIndent(rec []byte) int {
	ret := 0
	for _, c := range rec {
		if !(c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') {
			return ret
		}
		if c == ' ' {
			ret++
		} else if c == '\t' {
			ret += 8 - ret%8
		}
		if ret >= maxIndent {
			return maxIndent
		}
	}
	return -1
}

type splitMeasurement struct {
	endOfFile  bool
	indent     int
	preBlank   int
	preIndent  int
	postBlank  int
	postIndent int
}

func measureSplit(f *xfile, split int, m *splitMeasurement) {
	if split >= f.nrec() {
		m.endOfFile = true
		m.indent = -1
	} else {
		m.endOfFile = false
		m.indent = getIndent(f.recs[split])
	}
	m.preIndent, m.preBlank = nearestIndent(f, split-1, -1)
	m.postIndent, m.postBlank = nearestIndent(f, split+1, 1)
}

// nearestIndent looks from line i in direction step (-1 up, 1 down) for
// the first line that is not blank: its indent and the blank lines passed
// on the way; -1 when the file ends first, 0 after maxBlanks blank lines.
func nearestIndent(f *xfile, i, step int) (indent, blanks int) {
	indent = -1
	for ; i >= 0 && i < f.nrec(); i += step {
		indent = getIndent(f.recs[i])
		if indent != -1 {
			break
		}
		blanks++
		if blanks == maxBlanks {
			indent = 0
			break
		}
	}
	return indent, blanks
}

type splitScore struct{ effectiveIndent, penalty int }

func scoreAddSplit(m *splitMeasurement, s *splitScore) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += startOfFilePenalty
	}
	if m.endOfFile {
		s.penalty += endOfFilePenalty
	}
	postBlank := 0
	if m.indent == -1 {
		postBlank = 1 + m.postBlank
	}
	totalBlank := m.preBlank + postBlank
	s.penalty += totalBlankWeight * totalBlank
	s.penalty += postBlankWeight * postBlank
	indent := m.indent
	if indent == -1 {
		indent = m.postIndent
	}
	anyBlanks := totalBlank != 0
	s.effectiveIndent += indent
	switch {
	case indent == -1:
	case m.preIndent == -1:
	case indent > m.preIndent:
		if anyBlanks {
			s.penalty += relativeIndentWithBlankPenalty
		} else {
			s.penalty += relativeIndentPenalty
		}
	case indent == m.preIndent:
	default:
		if m.postIndent != -1 && m.postIndent > indent {
			if anyBlanks {
				s.penalty += relativeOutdentWithBlankPenalty
			} else {
				s.penalty += relativeOutdentPenalty
			}
		} else {
			if anyBlanks {
				s.penalty += relativeDedentWithBlankPenalty
			} else {
				s.penalty += relativeDedentPenalty
			}
		}
	}
}

func scoreCmp(s1, s2 *splitScore) int {
	cmp := 0
	if s1.effectiveIndent > s2.effectiveIndent {
		cmp = 1
	} else if s1.effectiveIndent < s2.effectiveIndent {
		cmp = -1
	}
	return indentWeight*cmp + (s1.penalty - s2.penalty)
}

func changeCompact(f, fo *xfile) {
	var g, gOther xgroup
	groupInit(f, &g)
	groupInit(fo, &gOther)
	for {
		if g.end != g.start {
			var groupsize, earliestEnd, endMatchingOther int
			for {
				groupsize = g.end - g.start
				endMatchingOther = -1
				for groupSlideUp(f, &g) {
					groupPrevious(fo, &gOther)
				}
				earliestEnd = g.end
				if gOther.end > gOther.start {
					endMatchingOther = g.end
				}
				for {
					if !groupSlideDown(f, &g) {
						break
					}
					groupNext(fo, &gOther)
					if gOther.end > gOther.start {
						endMatchingOther = g.end
					}
				}
				if groupsize == g.end-g.start {
					break
				}
			}
			switch {
			case g.end == earliestEnd:
			case endMatchingOther != -1:
				for gOther.end == gOther.start {
					groupSlideUp(f, &g)
					groupPrevious(fo, &gOther)
				}
			default:
				bestShift := -1
				var best splitScore
				shift := earliestEnd
				if g.end-groupsize-1 > shift {
					shift = g.end - groupsize - 1
				}
				if g.end-indentHeuristicMaxSliding > shift {
					shift = g.end - indentHeuristicMaxSliding
				}
				for ; shift <= g.end; shift++ {
					var m splitMeasurement
					var score splitScore
					measureSplit(f, shift, &m)
					scoreAddSplit(&m, &score)
					measureSplit(f, shift-groupsize, &m)
					scoreAddSplit(&m, &score)
					if bestShift == -1 || scoreCmp(&score, &best) <= 0 {
						best = score
						bestShift = shift
					}
				}
				for g.end > bestShift {
					groupSlideUp(f, &g)
					groupPrevious(fo, &gOther)
				}
			}
		}
		if !groupNext(f, &g) {
			break
		}
		groupNext(fo, &gOther)
	}
}
