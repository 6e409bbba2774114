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
			k := 0
			for k < len(buf) && !isDigit(buf[k]) {
				k++
			}
			nb := buf
			if bytes.HasPrefix(buf[k:], []byte("0,0")) {
				nb = append(append([]byte(nil), buf[:k]...), buf[k+2:]...)
			}
			var e int
			p.first, e = p.scanLinenum(nb, k, buf)
			if at(nb, e) == ',' {
				for e < len(nb) && !isDigit(nb[e]) {
					e++
				}
				p.ptrnLines, _ = p.scanLinenum(nb, e, buf)
				p.ptrnLines += 1 - p.first
				if p.ptrnLines < 0 {
					p.malformed(buf)
				}
			} else if p.first != 0 {
				p.ptrnLines = 1
			} else {
				p.ptrnLines = 0
				p.first = 1
			}
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
			{
				k := 0
				for k < len(buf) && !isDigit(buf[k]) {
					k++
				}
				var e int
				p.newfirst, e = p.scanLinenum(buf, k, buf)
				if at(buf, e) == ',' {
					for {
						e++
						if e >= len(buf) {
							p.malformed(buf)
						}
						if isDigit(buf[e]) {
							break
						}
					}
					p.replLines, _ = p.scanLinenum(buf, e, buf)
					p.replLines += 1 - p.newfirst
					if p.replLines < 0 {
						p.malformed(buf)
					}
				} else if p.newfirst != 0 {
					p.replLines = 1
				} else {
					p.replLines = 0
					p.newfirst = 1
				}
			}
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

func (p *patcher) unifiedHunk() bool {
	lineBeginning := p.ppos
	buf := p.getLine()
	if len(buf) <= 4 || !hasPrefix(buf, "@@ -") {
		p.nextIntuitAt(lineBeginning, p.inputLine)
		return false
	}
	buf = dup(buf)
	s := 4
	p.first, s = p.scanLinenum(buf, s, buf)
	if at(buf, s) == ',' {
		p.ptrnLines, s = p.scanLinenum(buf, s+1, buf)
	} else {
		p.ptrnLines = 1
	}
	if at(buf, s) == ' ' {
		s++
	}
	if at(buf, s) != '+' {
		p.malformed(buf)
	}
	p.newfirst, s = p.scanLinenum(buf, s+1, buf)
	if at(buf, s) == ',' {
		p.replLines, s = p.scanLinenum(buf, s+1, buf)
	} else {
		p.replLines = 1
	}
	if at(buf, s) == ' ' {
		s++
	}
	if at(buf, s) != '@' {
		p.malformed(buf)
	}
	s++
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
		switch ch {
		case '-':
			if fillsrc > p.ptrnLines {
				p.pend = filldst - 1
				p.malformed(buf)
			}
			if fillsrc == p.ptrnLines && p.incompleteLine() {
				text = dropLast(text)
			}
			p.setLine(fillsrc, text, ch)
			fillsrc++
		case '=', ' ':
			ch = ' '
			if fillsrc > p.ptrnLines {
				p.pend = fillsrc - 1
				p.malformed(buf)
			}
			context++
			if fillsrc == p.ptrnLines && p.incompleteLine() {
				text = dropLast(text)
			}
			p.setLine(fillsrc, text, ch)
			fillsrc++
			t2 := dup(text)
			if filldst > p.pend {
				p.pend = fillsrc - 1
				p.malformed(buf)
			}
			if filldst == p.pend && p.incompleteLine() {
				t2 = dropLast(t2)
			}
			p.setLine(filldst, t2, ch)
			filldst++
		case '+':
			if filldst > p.pend {
				p.pend = fillsrc - 1
				p.malformed(buf)
			}
			if filldst == p.pend && p.incompleteLine() {
				text = dropLast(text)
			}
			p.setLine(filldst, text, ch)
			filldst++
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
	i := 1
	for ; i <= p.ptrnLines; i++ {
		line := p.getLine()
		if line == nil {
			p.fatal("unexpected end of file in patch at line %d", p.inputLine)
		}
		if line[0] != '<' || (at(line, 1) != ' ' && at(line, 1) != '\t') {
			p.fatal("'<' followed by space or tab expected at line %d of patch", p.inputLine)
		}
		text := dup(line[2:])
		if i == p.ptrnLines && p.incompleteLine() {
			text = dropLast(text)
		}
		p.setLine(i, text, '-')
	}
	if hunkType == 'c' {
		line := p.getLine()
		if line == nil {
			p.fatal("unexpected end of file in patch at line %d", p.inputLine)
		}
		if line[0] != '-' {
			p.fatal("'---' expected at line %d of patch", p.inputLine)
		}
	}
	p.setLine(i, []byte(fmt.Sprintf("--- %d,%d\n", mn, mx)), '=')
	for i++; i <= p.pend; i++ {
		line := p.getLine()
		if line == nil {
			p.fatal("unexpected end of file in patch at line %d", p.inputLine)
		}
		if line[0] != '>' || (at(line, 1) != ' ' && at(line, 1) != '\t') {
			p.fatal("'>' followed by space or tab expected at line %d of patch", p.inputLine)
		}
		text := dup(line[2:])
		if i == p.pend && p.incompleteLine() {
			text = dropLast(text)
		}
		p.setLine(i, text, '+')
	}
	return true
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
	for ; i <= p.pend; i, k = i+1, k+1 {
		nl[k] = tl[i]
		nc[k] = tc[i]
		if nc[k] == '+' {
			nc[k] = '-'
		}
	}
	if blank {
		i = p.ptrnLines + 1
		nl[k] = tl[i]
		nc[k] = tc[i]
		k++
	}
	nc[0] = '*'
	nl[0] = bytes.ReplaceAll(nl[0], []byte("-"), []byte("*"))
	tc[0] = '='
	tl[0] = bytes.ReplaceAll(tl[0], []byte("*"), []byte("-"))
	for i = 0; k <= p.pend; i, k = i+1, k+1 {
		nl[k] = tl[i]
		nc[k] = tc[i]
		if nc[k] == '-' {
			nc[k] = '+'
		}
	}
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
		for ; old <= p.ptrnLines; old++ {
			if p.pchar[old] == '!' {
				p.pchar[old] = '-'
			}
		}
		for ; nw <= p.pend; nw++ {
			if p.pchar[nw] == '!' {
				p.pchar[nw] = '+'
			}
		}
		return
	}
	for old <= p.ptrnLines {
		switch {
		case p.pchar[old] == '-':
			if nw <= p.pend && p.pchar[nw] == '+' {
				for {
					p.pchar[old] = '!'
					old++
					if !(old <= p.ptrnLines && p.pchar[old] == '-') {
						break
					}
				}
				for {
					p.pchar[nw] = '!'
					nw++
					if !(nw <= p.pend && p.pchar[nw] == '+') {
						break
					}
				}
			} else {
				for {
					old++
					if !(old <= p.ptrnLines && p.pchar[old] == '-') {
						break
					}
				}
			}
		case nw <= p.pend && p.pchar[nw] == '+':
			for {
				nw++
				if !(nw <= p.pend && p.pchar[nw] == '+') {
					break
				}
			}
		default:
			old++
			nw++
		}
	}
}

func (p *patcher) pchRename() bool { return p.prename[0] && p.prename[1] }

func (p *patcher) pchCopy() bool { return p.pcopy[0] && p.pcopy[1] }
