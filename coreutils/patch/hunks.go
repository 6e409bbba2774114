package patch

import (
	"bytes"
	"fmt"
)

// scanLinenum reads a line number at s[i].
func (p *patcher) scanLinenum(s []byte, i int, line []byte) (int, int) {
	j := i
	n := 0
	overflow := false
	for j < len(s) && isDigit(s[j]) {
		nn := n*10 + int(s[j]-'0')
		if nn/10 != n || nn > 1<<62 {
			overflow = true
		}
		n = nn
		j++
	}
	if j == i {
		p.fatal("missing line number at line %d: %s", p.inputLine, line)
	}
	if overflow {
		p.fatal("line number %s is too large at line %d: %s", s[i:j], p.inputLine, line)
	}
	return n, j
}

// contextRange reads the "first,last" range of a context diff's "***"
// (old) or "---" (new) line as the first line and the number of lines.
// GNU reads the old range of "*** 0,0" as "0"; a comma with no number
// after it is a missing line number in the old range, a malformed line in
// the new.
func (p *patcher) contextRange(line []byte, old bool) (first, lines int) {
	k := 0
	for k < len(line) && !isDigit(line[k]) {
		k++
	}
	s := line
	if old && bytes.HasPrefix(line[k:], []byte("0,0")) {
		s = append(append([]byte(nil), line[:k]...), line[k+2:]...)
	}
	first, e := p.scanLinenum(s, k, line)
	switch {
	case at(s, e) == ',':
		for e++; e < len(s) && !isDigit(s[e]); e++ {
		}
		if !old && e >= len(s) {
			p.malformed(line)
		}
		last, _ := p.scanLinenum(s, e, line)
		lines = last + 1 - first
		if lines < 0 {
			p.malformed(line)
		}
	case first != 0:
		lines = 1
	default:
		first, lines = 1, 0
	}
	return first, lines
}

func (p *patcher) malformed(line []byte) {
	p.fatal("malformed patch at line %d: %s", p.inputLine, line)
}

// hunk line storage, 0-based index as GNU's p_line/p_Char.
func (p *patcher) setLine(i int, text []byte, ch byte) {
	for len(p.pline) <= i+1 {
		p.pline = append(p.pline, nil)
		p.pchar = append(p.pchar, 0)
	}
	p.pline[i] = text
	p.pchar[i] = ch
}

func (p *patcher) growHunkmax() { p.hunkmax *= 2 }

func dup(b []byte) []byte { return append([]byte(nil), b...) }

// dropLast removes the newline of a line followed by "\ No newline".
func dropLast(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	return b[:len(b)-1]
}

// anotherHunk reads the next hunk of the current diff; false when there
// is none.
func (p *patcher) anotherHunk(difftype diffType, rev bool) bool {
	p.pend = -1
	p.pline = p.pline[:0]
	p.pchar = p.pchar[:0]
	p.cFunction = ""
	p.hasCFunction = false
	p.pmax = p.hunkmax
	switch difftype {
	case contextDiff, newContextDiff:
		if !p.contextHunk(difftype) {
			return false
		}
	case uniDiff:
		if !p.unifiedHunk() {
			return false
		}
	default:
		if !p.normalHunk() {
			return false
		}
	}
	if rev {
		p.pchSwap()
	}
	p.setLine(p.pend+1, nil, '^')
	return true
}

func (p *patcher) contextHunk(difftype diffType) bool {
	lineBeginning := p.ppos
	replBeginning := 0
	fillcnt := 0
	fillsrc, filldst := 0, 0
	ptrnSpacesEaten := false
	someContext := false
	replCouldBeMissing := true
	ptrnMissing := false
	replMissing := false
	replBacktrack := 0
	replPatchLine := 0
	replContext := 0
	ptrnPrefixContext, ptrnSuffixContext, replPrefixContext := -1, -1, -1
	ptrnCopiable, replCopiable := 0, 0
	context := 0

	buf := p.getLine()
	if len(buf) <= 8 || !hasPrefix(buf, "********") {
		p.nextIntuitAt(lineBeginning, p.inputLine)
		return false
	}
	s := 0
	for at(buf, s) == '*' {
		s++
	}
	if at(buf, s) == ' ' {
		e := bytes.IndexByte(buf[s:], '\n')
		p.cFunction, p.hasCFunction = string(buf[s:s+e]), true
	}
	p.hunkBeg = p.inputLine + 1
	for p.pend < p.pmax {
		buf = p.getLine()
		if buf == nil {
			if replBeginning != 0 && replCouldBeMissing {
				replMissing = true
				goto hunkDone
			}
			if p.pmax-p.pend < 4 {
				buf = []byte("  \n")
			} else {
				p.fatal("unexpected end of file in patch")
			}
		}
		buf = dup(buf)
		p.pend++
		if p.pend == p.hunkmax {
			p.fatal("unterminated hunk starting at line %d; giving up at line %d: %s", p.hunkBeg, p.inputLine, buf)
		}
		p.setLine(p.pend, nil, buf[0])
		switch buf[0] {
		case '*':
			if hasPrefix(buf, "********") {
				if replBeginning != 0 && replCouldBeMissing {
					replMissing = true
					goto hunkDone
				}
				p.fatal("unexpected end of hunk at line %d", p.inputLine)
			}
			if p.pend != 0 {
				if replBeginning != 0 && replCouldBeMissing {
					replMissing = true
					goto hunkDone
				}
				p.fatal("unexpected '***' at line %d: %s", p.inputLine, buf)
			}
			context = 0
			p.pline[p.pend] = buf
			p.first, p.ptrnLines = p.contextRange(buf, true)
			p.pmax = p.ptrnLines + 6
			for p.pmax+1 >= p.hunkmax {
				p.growHunkmax()
			}
			p.pmax = p.hunkmax
		case '-':
			if at(buf, 1) != '-' {
				goto changeLine
			}
			if ptrnPrefixContext == -1 {
				ptrnPrefixContext = context
			}
			ptrnSuffixContext = context
			if replBeginning != 0 || p.pend != p.ptrnLines+1+b2i(p.charAt(p.pend-1) == '\n') {
				if p.pend == 1 {
					// The old lines were left out: fill them in from the
					// new context lines.
					ptrnMissing = true
					p.pend = p.ptrnLines + 1
					ptrnPrefixContext, ptrnSuffixContext = -1, -1
					fillsrc = p.pend + 1
					filldst = 1
					fillcnt = p.ptrnLines
					p.setLine(p.pend, nil, '-')
				} else if replBeginning == 0 {
					word := "Overdue"
					if p.pend <= p.ptrnLines {
						word = "Premature"
					}
					p.fatal("%s '---' at line %d; check line numbers at line %d", word, p.inputLine, p.hunkBeg)
				} else if !replCouldBeMissing {
					p.fatal("duplicate '---' at line %d; check line numbers at line %d", p.inputLine, p.hunkBeg+replBeginning)
				} else {
					replMissing = true
					goto hunkDone
				}
			}
			replBeginning = p.pend
			replBacktrack = p.ppos
			replPatchLine = p.inputLine
			replContext = context
			p.setLine(p.pend, buf, '=')
			p.newfirst, p.replLines = p.contextRange(buf, false)
			p.pmax = p.replLines + p.pend
			for p.pmax+1 >= p.hunkmax {
				p.growHunkmax()
			}
			if p.replLines != ptrnCopiable && (p.prefixContext != 0 || context != 0 || p.replLines != 1) {
				replCouldBeMissing = false
			}
			context = 0
		case '+', '!':
			replCouldBeMissing = false
			goto changeLine
		case '\t', '\n':
			{
				s := 0
				if buf[0] == '\t' {
					s = 1
				}
				if replBeginning != 0 && replCouldBeMissing && (!ptrnSpacesEaten || difftype == newContextDiff) {
					replMissing = true
					goto hunkDone
				}
				text := buf[s:]
				if len(text) > 1 && p.pend == p.endOfSection(replBeginning) && p.incompleteLine() {
					text = dropLast(text)
				}
				p.pline[p.pend] = text
				if p.pend != p.ptrnLines+1 {
					ptrnSpacesEaten = ptrnSpacesEaten || replBeginning != 0
					someContext = true
					context++
					if replBeginning != 0 {
						replCopiable++
					} else {
						ptrnCopiable++
					}
					p.pchar[p.pend] = ' '
				}
			}
		case ' ':
			{
				s := 1
				if at(buf, s) == ' ' || at(buf, s) == '\t' {
					s++
				} else if replBeginning != 0 && replCouldBeMissing {
					replMissing = true
					goto hunkDone
				}
				someContext = true
				context++
				if replBeginning != 0 {
					replCopiable++
				} else {
					ptrnCopiable++
				}
				text := buf[s:]
				if len(text) > 1 && p.pend == p.endOfSection(replBeginning) && p.incompleteLine() {
					text = dropLast(text)
				}
				p.pline[p.pend] = text
			}
		default:
			if replBeginning != 0 && replCouldBeMissing {
				replMissing = true
				goto hunkDone
			}
			p.malformed(buf)
		}
		continue
	changeLine:
		{
			s := 1
			if at(buf, s) == ' ' || at(buf, s) == '\t' {
				s++
			} else if replBeginning != 0 && replCouldBeMissing {
				replMissing = true
				goto hunkDone
			}
			if replBeginning == 0 {
				if ptrnPrefixContext == -1 {
					ptrnPrefixContext = context
				}
			} else if replPrefixContext == -1 {
				replPrefixContext = context
			}
			text := buf[s:]
			if len(text) > 1 && p.pend == p.endOfSection(replBeginning) && p.incompleteLine() {
				text = dropLast(text)
			}
			p.pline[p.pend] = text
			context = 0
		}
	}
hunkDone:
	if p.pend >= 0 && replBeginning == 0 {
		p.fatal("no '---' found in patch at line %d", p.hunkBeg)
	}
	if replMissing {
		p.inputLine = replPatchLine
		context = replContext
		p.pend = replBeginning
		p.ppos = replBacktrack
		fillsrc = 1
		filldst = replBeginning + 1
		fillcnt = p.replLines
		p.pend = p.pmax
	} else if !ptrnMissing && ptrnCopiable != replCopiable {
		p.fatal("context mangled in hunk at line %d", p.hunkBeg)
	} else if !someContext && fillcnt == 1 {
		// A null hunk with no context where one line was expected.
		for filldst < p.pend {
			p.pline[filldst] = p.pline[filldst+1]
			p.pchar[filldst] = p.pchar[filldst+1]
			filldst++
		}
		p.pend--
		p.first++
		fillcnt = 0
		p.ptrnLines = 0
	}
	if replPrefixContext == -1 || (ptrnPrefixContext != -1 && ptrnPrefixContext < replPrefixContext) {
		p.prefixContext = ptrnPrefixContext
	} else {
		p.prefixContext = replPrefixContext
	}
	if ptrnSuffixContext != -1 && ptrnSuffixContext < context {
		p.suffixContext = ptrnSuffixContext
	} else {
		p.suffixContext = context
	}
	if p.prefixContext == -1 || p.suffixContext == -1 {
		p.fatal("replacement text or line numbers mangled in hunk at line %d", p.hunkBeg)
	}
	if difftype == contextDiff && (fillcnt != 0 || (p.first > 1 && p.prefixContext+p.suffixContext < ptrnCopiable)) {
		if p.verbosity == verbose {
			p.say("%s\n%s\n%s\n",
				"(Fascinating -- this is really a new-style context diff but without",
				"the telltale extra asterisks on the *** line that usually indicate",
				"the new style...)")
		}
		p.diffType = newContextDiff
	}
	if fillcnt != 0 {
		p.setLine(p.pend, p.lineAt(p.pend), p.charAt(p.pend))
		for ; fillcnt > 0; fillcnt-- {
			for fillsrc <= p.pend && fillsrc != replBeginning && p.charAt(fillsrc) != ' ' {
				fillsrc++
			}
			if p.pend < fillsrc || fillsrc == replBeginning {
				p.fatal("replacement text or line numbers mangled in hunk at line %d", p.hunkBeg)
			}
			p.setLine(filldst, p.pline[fillsrc], p.pchar[fillsrc])
			fillsrc++
			filldst++
		}
		for fillsrc <= p.pend && fillsrc != replBeginning {
			if p.charAt(fillsrc) == ' ' {
				p.fatal("replacement text or line numbers mangled in hunk at line %d", p.hunkBeg)
			}
			fillsrc++
		}
	}
	return true
}

// endOfSection is the index of the last line of the current section:
// the old lines' last before the "---" line, the hunk's last after it.
func (p *patcher) endOfSection(replBeginning int) int {
	if replBeginning != 0 {
		return p.pmax
	}
	return p.ptrnLines
}

func (p *patcher) lineAt(i int) []byte {
	if i < len(p.pline) {
		return p.pline[i]
	}
	return nil
}

func (p *patcher) charAt(i int) byte {
	if i >= 0 && i < len(p.pchar) {
		return p.pchar[i]
	}
	return 0
}

// unifiedRange reads one "first[,lines]" range of an "@@ -a,b +c,d @@"
// line at buf[s:], which must be followed by a blank and the byte end; next
// is past end.
func (p *patcher) unifiedRange(buf []byte, s int, end byte) (first, lines, next int) {
	first, s = p.scanLinenum(buf, s, buf)
	lines = 1
	if at(buf, s) == ',' {
		lines, s = p.scanLinenum(buf, s+1, buf)
	}
	if at(buf, s) == ' ' {
		s++
	}
	if at(buf, s) != end {
		p.malformed(buf)
	}
	return first, lines, s + 1
}

func (p *patcher) unifiedHunk() bool {
	lineBeginning := p.ppos
	buf := p.getLine()
	if len(buf) <= 4 || !hasPrefix(buf, "@@ -") {
		p.nextIntuitAt(lineBeginning, p.inputLine)
		return false
	}
	buf = dup(buf)
	var s int
	p.first, p.ptrnLines, s = p.unifiedRange(buf, 4, '+')
	p.newfirst, p.replLines, s = p.unifiedRange(buf, s, '@')
	if at(buf, s) == '@' && at(buf, s+1) == ' ' {
		s++
		e := bytes.IndexByte(buf[s:], '\n')
		p.cFunction, p.hasCFunction = string(buf[s:s+e]), true
	}
	if p.ptrnLines == 0 {
		p.first++
	}
	if p.replLines == 0 {
		p.newfirst++
	}
	p.pmax = p.ptrnLines + p.replLines + 1
	for p.pmax+1 >= p.hunkmax {
		p.growHunkmax()
	}
	fillsrc := 1
	filldst := fillsrc + p.ptrnLines
	p.pend = filldst + p.replLines
	p.setLine(p.pend, nil, 0)
	p.setLine(0, []byte(fmt.Sprintf("*** %d,%d ****\n", p.first, p.first+p.ptrnLines-1)), '*')
	p.setLine(filldst, []byte(fmt.Sprintf("--- %d,%d ----\n", p.newfirst, p.newfirst+p.replLines-1)), '=')
	filldst++
	p.prefixContext = -1
	p.hunkBeg = p.inputLine + 1
	context := 0
	for fillsrc <= p.ptrnLines || filldst <= p.pend {
		buf = p.getLine()
		if buf == nil {
			if p.pmax-filldst < 3 {
				buf = []byte(" \n")
			} else {
				p.fatal("unexpected end of file in patch")
			}
		}
		buf = dup(buf)
		var ch byte
		var text []byte
		if buf[0] == '\t' || buf[0] == '\n' {
			ch = ' '
			text = buf
		} else {
			ch = buf[0]
			text = buf[1:]
		}
		// store puts text as line *i (up to last) and moves *i on; a line
		// past last is malformed, the hunk then ending at pendIfFull.
		store := func(i *int, last, pendIfFull int, text []byte, ch byte) []byte {
			if *i > last {
				p.pend = pendIfFull
				p.malformed(buf)
			}
			if *i == last && p.incompleteLine() {
				text = dropLast(text)
			}
			p.setLine(*i, text, ch)
			*i++
			return text
		}
		switch ch {
		case '-':
			store(&fillsrc, p.ptrnLines, filldst-1, text, ch)
		case '=', ' ':
			ch = ' '
			context++
			text = store(&fillsrc, p.ptrnLines, fillsrc-1, text, ch)
			store(&filldst, p.pend, fillsrc-1, dup(text), ch)
		case '+':
			store(&filldst, p.pend, fillsrc-1, text, ch)
		default:
			p.pend = filldst
			p.malformed(buf)
		}
		if ch != ' ' {
			if p.prefixContext == -1 {
				p.prefixContext = context
			}
			context = 0
		}
	}
	if p.prefixContext == -1 {
		p.malformed(buf)
	}
	p.suffixContext = context
	return true
}

func (p *patcher) normalHunk() bool {
	p.prefixContext, p.suffixContext = 0, 0
	lineBeginning := p.ppos
	buf := p.getLine()
	if buf == nil || !isDigit(buf[0]) {
		p.nextIntuitAt(lineBeginning, p.inputLine)
		return false
	}
	buf = dup(buf)
	var s int
	p.first, s = p.scanLinenum(buf, 0, buf)
	if at(buf, s) == ',' {
		p.ptrnLines, s = p.scanLinenum(buf, s+1, buf)
		p.ptrnLines += 1 - p.first
	} else {
		p.ptrnLines = b2i(at(buf, s) != 'a')
	}
	hunkType := at(buf, s)
	if hunkType == 'a' {
		p.first++
	}
	mn, e := p.scanLinenum(buf, s+1, buf)
	mx := mn
	if at(buf, e) == ',' {
		mx, _ = p.scanLinenum(buf, e+1, buf)
	}
	if mn > mx {
		p.malformed(buf)
	}
	if hunkType == 'd' {
		mn++
	}
	p.newfirst = mn
	p.replLines = mx - mn + 1
	p.pend = p.ptrnLines + p.replLines + 1
	for p.pend+1 >= p.hunkmax {
		p.growHunkmax()
	}
	p.setLine(p.pend, nil, 0)
	p.setLine(0, []byte(fmt.Sprintf("*** %d,%d\n", p.first, p.first+p.ptrnLines-1)), '*')
	p.normalLines(1, p.ptrnLines, '<', '-')
	if hunkType == 'c' {
		line := p.getLine()
		if line == nil {
			p.fatal("unexpected end of file in patch at line %d", p.inputLine)
		}
		if line[0] != '-' {
			p.fatal("'---' expected at line %d of patch", p.inputLine)
		}
	}
	p.setLine(p.ptrnLines+1, []byte(fmt.Sprintf("--- %d,%d\n", mn, mx)), '=')
	p.normalLines(p.ptrnLines+2, p.pend, '>', '+')
	return true
}

// normalLines reads hunk lines from to to of a normal diff, each made of
// lead ('<' or '>'), a blank and the text, and stores them as kind.
func (p *patcher) normalLines(from, to int, lead, kind byte) {
	for i := from; i <= to; i++ {
		line := p.getLine()
		if line == nil {
			p.fatal("unexpected end of file in patch at line %d", p.inputLine)
		}
		if line[0] != lead || (at(line, 1) != ' ' && at(line, 1) != '\t') {
			p.fatal("'%c' followed by space or tab expected at line %d of patch", lead, p.inputLine)
		}
		text := dup(line[2:])
		if i == to && p.incompleteLine() {
			text = dropLast(text)
		}
		p.setLine(i, text, kind)
	}
}

// pchSwap reverses the old and new parts of the current hunk.
func (p *patcher) pchSwap() {
	p.first, p.newfirst = p.newfirst, p.first
	tl, tc := p.pline, p.pchar
	n := p.pend + 2
	nl := make([][]byte, n)
	nc := make([]byte, n)
	i := p.ptrnLines + 1
	blank := false
	if tc[i] == '\n' {
		blank = true
		i++
	}
	k := 0
	// take moves lines i..end to the new hunk, their marker from becoming to.
	take := func(i, end int, from, to byte) int {
		for ; i <= end; i, k = i+1, k+1 {
			nl[k], nc[k] = tl[i], tc[i]
			if nc[k] == from {
				nc[k] = to
			}
		}
		return i
	}
	take(i, p.pend, '+', '-')
	if blank {
		take(p.ptrnLines+1, p.ptrnLines+1, 0, 0)
	}
	nc[0] = '*'
	nl[0] = bytes.ReplaceAll(nl[0], []byte("-"), []byte("*"))
	tc[0] = '='
	tl[0] = bytes.ReplaceAll(tl[0], []byte("*"), []byte("-"))
	take(0, p.pend-k, '-', '+')
	p.ptrnLines, p.replLines = p.replLines, p.ptrnLines
	nc[p.pend+1] = '^'
	p.pline, p.pchar = nl, nc
}

// pchNormalize converts '!' lines to '-'/'+' (unified) or groups of
// '-' followed by '+' to '!' (context).
func (p *patcher) pchNormalize(format diffType) {
	old := 1
	nw := p.ptrnLines + 1
	for p.pchar[nw] == '=' || p.pchar[nw] == '\n' {
		nw++
	}
	if format == uniDiff {
		p.remark(old, p.ptrnLines, '!', '-')
		p.remark(nw, p.pend, '!', '+')
		return
	}
	for old <= p.ptrnLines {
		switch {
		case p.pchar[old] == '-':
			if nw <= p.pend && p.pchar[nw] == '+' {
				old = p.markRun(old, p.ptrnLines, '-', '!')
				nw = p.markRun(nw, p.pend, '+', '!')
			} else {
				old = p.markRun(old, p.ptrnLines, '-', '-')
			}
		case nw <= p.pend && p.pchar[nw] == '+':
			nw = p.markRun(nw, p.pend, '+', '+')
		default:
			old++
			nw++
		}
	}
}

// remark turns the marker from into to on hunk lines i..end.
func (p *patcher) remark(i, end int, from, to byte) {
	for ; i <= end; i++ {
		if p.pchar[i] == from {
			p.pchar[i] = to
		}
	}
}

// markRun marks the run of lines with marker c that starts at i (up to
// end) as to, and returns the index past it.
func (p *patcher) markRun(i, end int, c, to byte) int {
	for {
		p.pchar[i] = to
		i++
		if !(i <= end && p.pchar[i] == c) {
			return i
		}
	}
}

func (p *patcher) pchRename() bool { return p.prename[0] && p.prename[1] }

func (p *patcher) pchCopy() bool { return p.pcopy[0] && p.pcopy[1] }
