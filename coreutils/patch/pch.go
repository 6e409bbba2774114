package patch

import (
	"bytes"
	"fmt"
	"io/fs"
)

// Reading patches: finding the next diff in the patch input, its kind,
// its file names, and its hunks, as GNU patch 2.7.6 does.

type diffType int

// The order matters: GNU compares NEW_CONTEXT_DIFF <= diff_type.
const (
	noDiff diffType = iota
	contextDiff
	normalDiff
	edDiff
	newContextDiff
	uniDiff
	gitBinaryDiff
)

const (
	nameOld   = 0
	nameNew   = 1
	nameIndex = 2
	nameNone  = 3
)

// fatalError stops patch with exit status 2 after its message.
type fatalError struct{ msg string }

func (e *fatalError) Error() string { return e.msg }

func (p *patcher) fatal(format string, args ...any) {
	panic(&fatalError{fmt.Sprintf(format, args...)})
}

// pfatal is fatal with the system's error text appended as perror(" ")
// does: "patch: **** MSG : error".
func (p *patcher) pfatal(err error, format string, args ...any) {
	panic(&fatalError{fmt.Sprintf(format, args...) + " : " + errText(err)})
}

// pget_line: read a line of the patch, stripping indent columns of
// indentation and rfc934 "- " prefixes; lines starting with '#' are
// comments unless passComments. Returns the line with its newline, or
// nil at the end of the input.
func (p *patcher) pgetLine(indent int, rfc934 int, stripCR bool, passComments bool) []byte {
	d := p.pdata
	for {
		if p.ppos >= len(d) {
			return nil
		}
		i := 0
		var c byte
		for {
			if p.ppos >= len(d) {
				return nil
			}
			c = d[p.ppos]
			p.ppos++
			if indent <= i {
				break
			}
			if c == ' ' || c == 'X' {
				i++
			} else if c == '\t' {
				i = (i + 8) &^ 7
			} else {
				break
			}
		}
		b := p.lineBuf[:0]
		for c == '-' && rfc934 > 0 {
			rfc934--
			if p.ppos >= len(d) {
				return p.endsMidLine()
			}
			c = d[p.ppos]
			p.ppos++
			if c != ' ' {
				b = append(b, '-')
				break
			}
			if p.ppos >= len(d) {
				return p.endsMidLine()
			}
			c = d[p.ppos]
			p.ppos++
		}
		for {
			b = append(b, c)
			if c == '\n' {
				break
			}
			if p.ppos >= len(d) {
				p.lineBuf = b
				return p.endsMidLine()
			}
			c = d[p.ppos]
			p.ppos++
		}
		p.lineBuf = b
		p.inputLine++
		if b[0] == '#' && !passComments {
			continue
		}
		if stripCR && len(b) >= 2 && b[len(b)-2] == '\r' {
			b[len(b)-2] = '\n'
			b = b[:len(b)-1]
		}
		return b
	}
}

func (p *patcher) endsMidLine() []byte {
	p.say("patch unexpectedly ends in middle of line\n")
	return nil
}

func (p *patcher) getLine() []byte {
	return p.pgetLine(p.indent, p.rfc934, p.stripCR, p.passComments)
}

// incompleteLine consumes a "\ No newline at end of file" line if one
// comes next.
func (p *patcher) incompleteLine() bool {
	if p.ppos < len(p.pdata) && p.pdata[p.ppos] == '\\' {
		k := bytes.IndexByte(p.pdata[p.ppos:], '\n')
		if k < 0 {
			p.ppos = len(p.pdata)
		} else {
			p.ppos += k + 1
		}
		return true
	}
	return false
}

func (p *patcher) nextIntuitAt(pos, line int) {
	p.pbase = pos
	p.pbline = line
}

// skipTo moves to the start of the diff, showing what came before it
// when the file to patch is unknown or in verbose mode.
func (p *patcher) skipTo(pos, line int) {
	if (p.verbosity == verbose || p.inname == "") && p.pbase < pos {
		p.say("The text leading up to this was:\n--------------------------\n")
		q := p.pbase
		for q < pos {
			k := bytes.IndexByte(p.pdata[q:], '\n')
			end := len(p.pdata)
			if k >= 0 {
				end = q + k + 1
			}
			p.out.WriteByte('|')
			p.out.Write(p.pdata[q:end])
			q = end
		}
		p.say("--------------------------\n")
	}
	p.ppos = pos
	p.inputLine = line - 1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

func at(s []byte, i int) byte {
	if i < len(s) && i >= 0 {
		return s[i]
	}
	return 0
}

func hasPrefix(s []byte, prefix string) bool { return bytes.HasPrefix(s, []byte(prefix)) }

// edCommandLetter reports whether line is an ed command patch accepts.
func edCommandLetter(line []byte) byte {
	i := 0
	pair := false
	if isDigit(at(line, i)) {
		for i++; isDigit(at(line, i)); i++ {
		}
		if at(line, i) == ',' {
			i++
			if !isDigit(at(line, i)) {
				return 0
			}
			for i++; isDigit(at(line, i)); i++ {
			}
			pair = true
		}
	}
	letter := at(line, i)
	i++
	switch letter {
	case 'a', 'i':
		if pair {
			return 0
		}
	case 'c', 'd':
	case 's':
		if !bytes.HasPrefix(line[min(i, len(line)):], []byte("/.//")) {
			return 0
		}
		i += 4
	default:
		return 0
	}
	for at(line, i) == ' ' || at(line, i) == '\t' {
		i++
	}
	if at(line, i) == '\n' {
		return letter
	}
	return 0
}

// thereIsAnotherPatch finds the next diff; false at the end.
func (p *patcher) thereIsAnotherPatch(needHeader bool) bool {
	if p.pbase != 0 && p.pbase >= len(p.pdata) {
		if p.verbosity == verbose {
			p.say("done\n")
		}
		return false
	}
	if p.verbosity == verbose {
		p.say("Hmm...")
	}
	p.diffType = p.intuitDiffType(needHeader)
	if p.diffType == noDiff {
		if p.verbosity == verbose {
			if p.pbase != 0 {
				p.say("  Ignoring the trailing garbage.\ndone\n")
			} else {
				p.say("  I can't seem to find a patch in there anywhere.\n")
			}
		}
		if p.pbase == 0 && len(p.pdata) > 0 {
			p.fatal("Only garbage was found in the patch input.")
		}
		return false
	}
	if p.skipRest {
		p.ppos = p.pstart
		p.inputLine = p.psline - 1
		return true
	}
	if p.verbosity == verbose {
		lead := "L"
		if p.pbase != 0 {
			lead = "The next patch l"
		}
		kind := map[diffType]string{uniDiff: "a unified diff", contextDiff: "a context diff",
			newContextDiff: "a new-style context diff", normalDiff: "a normal diff",
			gitBinaryDiff: "a git binary diff", edDiff: "an ed script"}[p.diffType]
		p.say("  %sooks like %s to me...\n", lead, kind)
	}
	if p.noStripCR {
		p.stripCR = false
	}
	if p.verbosity != silent {
		if p.indent != 0 {
			s := "s"
			if p.indent == 1 {
				s = ""
			}
			p.say("(Patch is indented %d space%s.)\n", p.indent, s)
		}
		if p.stripCR {
			p.say("(Stripping trailing CRs from patch; use --binary to disable.)\n")
		}
		if p.inname == "" {
			p.say("can't find file to patch at input line %d\n", p.psline)
			if p.diffType != edDiff && p.diffType != normalDiff {
				if p.strip < 0 {
					p.say("Perhaps you should have used the -p or --strip option?\n")
				} else {
					p.say("Perhaps you used the wrong -p or --strip option?\n")
				}
			}
		}
	}
	p.skipTo(p.pstart, p.psline)
	if p.inname == "" {
		if p.force || p.batch {
			p.say("No file to patch.  Skipping patch.\n")
			p.skipRest = true
			return true
		}
		// Without a terminal every question gets the default answer.
		p.ask("File to patch: ")
		p.ask("Skip this patch? [y] ")
		if p.verbosity != silent {
			p.say("Skipping patch.\n")
		}
		p.skipRest = true
		return true
	}
	return true
}

// intuitDiffType scans for the start of the next diff, collecting the
// header information on the way, and chooses the file to patch.
func (p *patcher) intuitDiffType(needHeader bool) diffType {
	thisLine := 0
	firstCommandLine := -1
	var firstEdLetter byte
	fclLine := 0
	thisIsCommand := false
	starsThisLine := false
	extendedHeaders := false
	var retval diffType

	p.pname = [3]string{}
	p.hasName = [3]bool{}
	p.invalidNames = nil
	p.ptimestr = [2]string{}
	p.hasTimestr = [2]bool{}
	p.psha1 = [2]string{}
	p.gitDiff = false
	p.pmode = [2]fs.FileMode{}
	p.pcopy = [2]bool{}
	p.prename = [2]bool{}
	if p.diffType == edDiff || p.diffType == normalDiff {
		needHeader = false
	}
	p.rfc934 = 0
	p.ptimestamp = [2]stamp{{sec: -1}, {sec: -1}}
	p.saysNonexistent = [2]int{}
	p.ppos = p.pbase
	p.inputLine = p.pbline - 1
	indent := 0
	for {
		previousLine := thisLine
		lastLineWasCommand := thisIsCommand
		starsLastLine := starsThisLine
		indentLastLine := indent
		indent = 0
		thisLine = p.ppos
		line := p.pgetLine(0, 0, false, false)
		if line == nil {
			if firstEdLetter != 0 {
				p.pstart = firstCommandLine
				p.psline = fclLine
				retval = edDiff
				break
			}
			p.pstart = thisLine
			p.psline = p.inputLine
			if extendedHeaders {
				retval = uniDiff
				break
			}
			return noDiff
		}
		line = append([]byte(nil), line...)
		stripCR := len(line) >= 2 && line[len(line)-2] == '\r'
		s := 0
		for s < len(line) && (line[s] == ' ' || line[s] == '\t' || line[s] == 'X') {
			if line[s] == '\t' {
				indent = (indent + 8) &^ 7
			} else {
				indent++
			}
			s++
		}
		rest := line[s:]
		if isDigit(at(rest, 0)) {
			t := 1
			for isDigit(at(rest, t)) || at(rest, t) == ',' {
				t++
			}
			if c := at(rest, t); c == 'd' || c == 'c' || c == 'a' {
				for t++; isDigit(at(rest, t)) || at(rest, t) == ','; t++ {
				}
				for at(rest, t) == ' ' || at(rest, t) == '\t' {
					t++
				}
				if at(rest, t) == '\r' {
					t++
				}
				thisIsCommand = at(rest, t) == '\n'
			}
		}
		if !needHeader && firstCommandLine < 0 {
			edLetter := edCommandLetter(rest)
			if edLetter != 0 || thisIsCommand {
				firstCommandLine = thisLine
				firstEdLetter = edLetter
				fclLine = p.inputLine
				p.indent = indent
				p.stripCR = stripCR
			}
		}
		switch {
		case !starsLastLine && hasPrefix(rest, "*** "):
			p.fetchname(rest[4:], nameOld, true)
			needHeader = false
		case hasPrefix(rest, "+++ "):
			// Swapped with the new name below.
			p.fetchname(rest[4:], nameOld, true)
			needHeader = false
			p.stripCR = stripCR
		case hasPrefix(rest, "Index:"):
			p.fetchnameIndex(rest[6:])
			needHeader = false
			p.stripCR = stripCR
		case hasPrefix(rest, "Prereq:"):
			t := 7
			for t < len(rest) && isSpace(rest[t]) {
				t++
			}
			start := t
			for t < len(rest) && !isSpace(rest[t]) {
				t++
			}
			if t < len(rest) {
				u := t + 1
				for u < len(rest) && isSpace(rest[u]) {
					u++
				}
				if u < len(rest) {
					p.say("Prereq: with multiple words at line %d of patch\n", thisLine)
				}
			}
			if t == start {
				p.revision = ""
			} else {
				p.revision = string(rest[start:t])
			}
		case hasPrefix(rest, "diff --git "):
			if extendedHeaders {
				p.pstart = thisLine
				p.psline = p.inputLine
				retval = uniDiff
				goto scanExit
			}
			p.pname[nameOld], p.pname[nameNew] = "", ""
			p.hasName[nameOld], p.hasName[nameNew] = false, false
			u := 11
			n0, ok0, u0 := p.parseName(rest, u)
			ok := ok0 && u0 < len(rest) && isSpace(rest[u0])
			if ok {
				n1, ok1, u1 := p.parseName(rest, u0)
				ok = ok1 && skipSpaces(rest, u1) == len(rest)
				if ok {
					p.pname[nameOld], p.hasName[nameOld] = n0, true
					p.pname[nameNew], p.hasName[nameNew] = n1, true
				}
			}
			p.gitDiff = true
			needHeader = false
		case p.gitDiff && hasPrefix(rest, "index "):
			u := skipHexDigits(rest, 6)
			if u >= 0 && at(rest, u) == '.' && at(rest, u+1) == '.' {
				v := skipHexDigits(rest, u+2)
				if v >= 0 && (v == len(rest) || isSpace(rest[v])) {
					p.psha1[nameOld] = string(rest[6:u])
					p.psha1[nameNew] = string(rest[u+2 : v])
					p.saysNonexistent[nameOld] = sha1SaysNonexistent(p.psha1[nameOld])
					p.saysNonexistent[nameNew] = sha1SaysNonexistent(p.psha1[nameNew])
					if w := skipSpaces(rest, v); w < len(rest) {
						m := fetchmode(rest[w:])
						p.pmode[nameOld], p.pmode[nameNew] = m, m
					}
					extendedHeaders = true
				}
			}
		case p.gitDiff && hasPrefix(rest, "old mode "):
			p.pmode[nameOld] = fetchmode(rest[9:])
			extendedHeaders = true
		case p.gitDiff && hasPrefix(rest, "new mode "):
			p.pmode[nameNew] = fetchmode(rest[9:])
			extendedHeaders = true
		case p.gitDiff && hasPrefix(rest, "deleted file mode "):
			p.pmode[nameOld] = fetchmode(rest[18:])
			p.saysNonexistent[nameNew] = 2
			extendedHeaders = true
		case p.gitDiff && hasPrefix(rest, "new file mode "):
			p.pmode[nameNew] = fetchmode(rest[14:])
			p.saysNonexistent[nameOld] = 2
			extendedHeaders = true
		case p.gitDiff && hasPrefix(rest, "rename from "):
			p.prename[nameOld] = true
			extendedHeaders = true
		case p.gitDiff && hasPrefix(rest, "rename to "):
			p.prename[nameNew] = true
			extendedHeaders = true
		case p.gitDiff && hasPrefix(rest, "copy from "):
			p.pcopy[nameOld] = true
			extendedHeaders = true
		case p.gitDiff && hasPrefix(rest, "copy to "):
			p.pcopy[nameNew] = true
			extendedHeaders = true
		case p.gitDiff && hasPrefix(rest, "GIT binary patch"):
			p.pstart = thisLine
			p.psline = p.inputLine
			retval = gitBinaryDiff
			goto scanExit
		default:
			t := 0
			for at(rest, t) == '-' && at(rest, t+1) == ' ' {
				t += 2
			}
			if hasPrefix(rest[t:], "--- ") {
				st := p.fetchname(rest[t+4:], nameNew, false)
				needHeader = false
				if st.sec != -1 {
					p.ptimestamp[nameNew] = st
					p.rfc934 = t >> 1
				}
				p.stripCR = stripCR
			}
		}
		if needHeader {
			continue
		}
		if (p.diffType == noDiff || p.diffType == edDiff) && firstCommandLine >= 0 && string(rest) == ".\n" {
			p.pstart = firstCommandLine
			p.psline = fclLine
			retval = edDiff
			break
		}
		if (p.diffType == noDiff || p.diffType == uniDiff) && hasPrefix(rest, "@@ -") {
			p.ptimestamp[nameOld], p.ptimestamp[nameNew] = p.ptimestamp[nameNew], p.ptimestamp[nameOld]
			p.pname[nameOld], p.pname[nameNew] = p.pname[nameNew], p.pname[nameOld]
			p.hasName[nameOld], p.hasName[nameNew] = p.hasName[nameNew], p.hasName[nameOld]
			p.ptimestr[nameOld], p.ptimestr[nameNew] = p.ptimestr[nameNew], p.ptimestr[nameOld]
			p.hasTimestr[nameOld], p.hasTimestr[nameNew] = p.hasTimestr[nameNew], p.hasTimestr[nameOld]
			t := 4
			if at(rest, t) == '0' && !isDigit(at(rest, t+1)) {
				p.saysNonexistent[nameOld] = 1 + b2i(p.ptimestamp[nameOld].sec == 0)
			}
			for t < len(rest) && rest[t] != ' ' && rest[t] != '\n' {
				t++
			}
			for at(rest, t) == ' ' {
				t++
			}
			if at(rest, t) == '+' && at(rest, t+1) == '0' && !isDigit(at(rest, t+2)) {
				p.saysNonexistent[nameNew] = 1 + b2i(p.ptimestamp[nameNew].sec == 0)
			}
			p.indent = indent
			p.pstart = thisLine
			p.psline = p.inputLine
			retval = uniDiff
			if !((p.hasName[nameOld] || p.ptimestamp[nameOld].sec != 0) && (p.hasName[nameNew] || p.ptimestamp[nameNew].sec != 0)) &&
				!p.hasName[nameIndex] && needHeader {
				p.say("missing header for unified diff at line %d of patch\n", p.psline)
			}
			break
		}
		starsThisLine = hasPrefix(rest, "********")
		if (p.diffType == noDiff || p.diffType == contextDiff || p.diffType == newContextDiff) &&
			starsLastLine && indentLastLine == indent && hasPrefix(rest, "*** ") {
			t := 4
			if at(rest, t) == '0' && !isDigit(at(rest, t+1)) {
				p.saysNonexistent[nameOld] = 1 + b2i(p.ptimestamp[nameOld].sec == 0)
			}
			nl := bytes.IndexByte(rest, '\n')
			p.indent = indent
			p.stripCR = stripCR
			p.pstart = previousLine
			p.psline = p.inputLine - 1
			if nl > 0 && rest[nl-1] == '*' {
				retval = newContextDiff
			} else {
				retval = contextDiff
			}
			// Scan the first hunk to see whether the file contents appear
			// to have been deleted.
			savedBase, savedBline := p.pbase, p.pbline
			p.ppos = previousLine
			p.inputLine -= 2
			if p.anotherHunk(retval, false) && p.replLines == 0 && p.newfirst == 1 {
				p.saysNonexistent[nameNew] = 1 + b2i(p.ptimestamp[nameNew].sec == 0)
			}
			p.nextIntuitAt(savedBase, savedBline)
			if !((p.hasName[nameOld] || p.ptimestamp[nameOld].sec != 0) && (p.hasName[nameNew] || p.ptimestamp[nameNew].sec != 0)) &&
				!p.hasName[nameIndex] && needHeader {
				p.say("missing header for context diff at line %d of patch\n", p.psline)
			}
			break
		}
		if (p.diffType == noDiff || p.diffType == normalDiff) && lastLineWasCommand &&
			(hasPrefix(rest, "< ") || hasPrefix(rest, "> ")) {
			p.pstart = previousLine
			p.psline = p.inputLine - 1
			p.indent = indent
			retval = normalDiff
			break
		}
	}

scanExit:
	fileType := p.pmode[nameOld] & typeMask
	if fileType != 0 {
		if nt := p.pmode[nameNew] & typeMask; nt != 0 && nt != fileType {
			fileType = 0
		}
	} else {
		fileType = p.pmode[nameNew] & typeMask
		if fileType == 0 {
			fileType = typeReg
		}
	}
	p.fileType = fileType

	i := nameNone
	var st [3]fileStat
	var statErr [3]error
	if p.inname == "" {
		i0 := nameNone
		if !p.posix && (p.hasName[nameOld] || p.hasName[nameNew]) && p.hasName[nameIndex] {
			p.pname[nameIndex], p.hasName[nameIndex] = "", false
		}
		for i = nameOld; i <= nameIndex; i++ {
			if !p.hasName[i] {
				continue
			}
			if i0 != nameNone && p.pname[i0] == p.pname[i] {
				statErr[i] = statErr[i0]
				st[i] = st[i0]
			} else {
				st[i], statErr[i] = p.statFile(p.pname[i])
				if statErr[i] == nil {
					if p.deleteLater[p.abs(p.pname[i])] {
						statErr[i] = fs.ErrNotExist
					} else if p.posix && p.nameIsValid(p.pname[i]) {
						break
					}
				}
			}
			i0 = i
		}
		if !p.posix {
			ignore := [3]int{}
			for k := 0; k < 3; k++ {
				if statErr[k] != nil {
					ignore[k] = 1
				}
			}
			i = p.bestName(ignore)
			if i0 != nameNone && (i == nameNone || st[i].mode&typeMask == fileType) {
				name := p.pname[i0]
				if i != nameNone {
					name = p.pname[i]
				}
				if p.maybeReverse(name, i == nameNone, i == nameNone || st[i].size == 0) && i == nameNone {
					i = i0
				}
			}
			if i == nameNone && p.saysNonexistent[b2i(p.reverse)] != 0 {
				newdirs := [3]int{}
				newdirsMin := int(^uint(0) >> 1)
				for k := nameOld; k <= nameIndex; k++ {
					if p.hasName[k] {
						newdirs[k] = p.prefixComponents(p.pname[k], false) - p.prefixComponents(p.pname[k], true)
						newdirsMin = min(newdirsMin, newdirs[k])
					}
				}
				var dist [3]int
				for k := nameOld; k <= nameIndex; k++ {
					if p.hasName[k] {
						dist[k] = newdirs[k] - newdirsMin
					}
				}
				i = p.bestName(dist)
			}
		}
	}
	if (p.pchRename() || p.pchCopy()) && p.inname == "" &&
		!((i == nameOld || i == nameNew) && p.hasName[b2i(!p.reverse)] && p.nameIsValid(p.pname[b2i(!p.reverse)])) {
		verb := "copy"
		if p.pchRename() {
			verb = "rename"
		}
		p.say("Cannot %s file without two valid file names\n", verb)
		p.skipRest = true
	}
	if i == nameNone {
		if p.inname != "" {
			p.instat, p.inerr = p.statFile(p.inname)
			if p.inerr != nil || p.instat.mode&typeMask == fileType {
				p.maybeReverse(p.inname, p.inerr != nil, p.inerr != nil || p.instat.size == 0)
			}
		} else {
			p.inerrUnknown = true
		}
	} else {
		p.inname = p.pname[i]
		p.inerr = statErr[i]
		p.inerrUnknown = false
		p.instat = st[i]
	}
	return retval
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (p *patcher) maybeReverse(name string, nonexistent, isEmpty bool) bool {
	r := b2i(p.reverse)
	e := b2i(isEmpty)
	looksReversed := b2i(!isEmpty) < p.saysNonexistent[r^e]
	n := b2i(nonexistent)
	if isEmpty && p.saysNonexistent[r^n] == 1 && p.saysNonexistent[b2i(!p.reverse)^n] == 2 {
		return false
	}
	if looksReversed {
		when := ""
		if p.reverse {
			when = ", when reversed,"
		}
		verb, state := "create", "already exists"
		switch {
		case nonexistent:
			verb, state = "delete", "does not exist"
		case isEmpty:
			verb, state = "empty out", "is already empty"
		}
		if p.okToReverse("The next patch%s would %s the file %s,\nwhich %s!", when, verb, p.quote(name), state) {
			p.reverse = !p.reverse
		}
	}
	return looksReversed
}
