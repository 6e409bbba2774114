package patch

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
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

// fetchmode parses a git mode; 0 when it is not one.
func fetchmode(s []byte) fs.FileMode {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	var mode uint32
	start := i
	for ; i < start+6; i++ {
		c := at(s, i)
		if c < '0' || c > '7' {
			return 0
		}
		mode = mode<<3 + uint32(c-'0')
	}
	if at(s, i) == '\r' {
		i++
	}
	if at(s, i) != '\n' {
		return 0
	}
	return gitMode(mode)
}

// gitMode converts a git mode number to an fs.FileMode, with typeReg or
// typeLink as the type; 0 for other types.
func gitMode(m uint32) fs.FileMode {
	perm := fs.FileMode(m & 0o777)
	switch m >> 12 {
	case 0o10:
		return typeReg | perm
	case 0o12:
		return typeLink | perm
	}
	return 0
}

// File types as patch tracks them (0: unknown).
const (
	typeReg  fs.FileMode = 1 << 31 >> 1 // any bit outside the permission bits
	typeLink fs.FileMode = fs.ModeSymlink
	typeMask             = typeReg | typeLink
)

func sha1SaysNonexistent(sha1 string) int {
	if strings.Trim(sha1, "0") == "" {
		return 2
	}
	if strings.HasPrefix("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", sha1) {
		return 1
	}
	return 0
}

func skipHexDigits(s []byte, i int) int {
	j := i
	for j < len(s) && (isDigit(s[j]) || (s[j] >= 'a' && s[j] <= 'f')) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func skipSpaces(s []byte, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
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

// prefixComponents counts the directory components of name; with
// checkDirs, only those that exist as directories.
func (p *patcher) prefixComponents(name string, checkDirs bool) int {
	count := 0
	for k := 1; k < len(name); k++ {
		if name[k] == '/' && name[k-1] != '/' {
			if checkDirs {
				fi, err := p.c.Stat(name[:k])
				if err != nil || !fi.IsDir() {
					break
				}
			}
			count++
		}
	}
	return count
}

func baseLen(name string) int {
	t := strings.TrimRight(name, "/")
	if t == "" {
		return len(name)
	}
	return len(path.Base(t))
}

// bestName picks among the old, new and index names: fewest directory
// components, then shortest base name, then shortest name, then first.
func (p *patcher) bestName(ignore [3]int) int {
	var components, blen, nlen [3]int
	cmin, bmin, lmin := int(^uint(0)>>1), int(^uint(0)>>1), int(^uint(0)>>1)
	for i := nameOld; i <= nameIndex; i++ {
		if !p.hasName[i] || ignore[i] != 0 {
			continue
		}
		components[i] = p.prefixComponents(p.pname[i], false)
		if cmin < components[i] {
			continue
		}
		cmin = components[i]
		blen[i] = baseLen(p.pname[i])
		if bmin < blen[i] {
			continue
		}
		bmin = blen[i]
		nlen[i] = len(p.pname[i])
		if lmin < nlen[i] {
			continue
		}
		lmin = nlen[i]
	}
	for i := nameOld; i <= nameIndex; i++ {
		if p.hasName[i] && ignore[i] == 0 && p.nameIsValid(p.pname[i]) &&
			components[i] == cmin && blen[i] == bmin && nlen[i] == lmin {
			return i
		}
	}
	return nameNone
}

// filenameIsSafe: relative and free of ".." components.
func filenameIsSafe(name string) bool {
	if strings.HasPrefix(name, "/") {
		return false
	}
	for _, comp := range strings.Split(name, "/") {
		if comp == ".." {
			return false
		}
	}
	return true
}

func (p *patcher) nameIsValid(name string) bool {
	for _, n := range p.invalidNames {
		if n == name {
			return false
		}
	}
	valid := filenameIsSafe(name) || p.c.Dir == "/"
	if !valid {
		p.say("Ignoring potentially dangerous file name %s\n", p.quote(name))
		if len(p.invalidNames) < 2 {
			p.invalidNames = append(p.invalidNames, name)
		}
	}
	return valid
}

// parseCString decodes a double-quoted C string at s[i]; ok is false if
// it is malformed.
func parseCString(s []byte, i int) (string, int, bool) {
	i++
	var out []byte
	for {
		if i >= len(s) || s[i] == 0 {
			return "", i, false
		}
		c := s[i]
		i++
		switch c {
		case '"':
			return string(out), i, true
		case '\\':
		default:
			out = append(out, c)
			continue
		}
		if i >= len(s) {
			return "", i, false
		}
		c = s[i]
		i++
		switch c {
		case 'a':
			c = '\a'
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'v':
			c = '\v'
		case '\\', '"':
		case '0', '1', '2', '3':
			acc := (c - '0') << 6
			c = at(s, i)
			i++
			if c < '0' || c > '7' {
				return "", i, false
			}
			acc |= (c - '0') << 3
			c = at(s, i)
			i++
			if c < '0' || c > '7' {
				return "", i, false
			}
			c = acc | (c - '0')
		default:
			return "", i, false
		}
		out = append(out, c)
	}
}

// stripLeadingSlashes removes strip leading components of name (all of
// them when strip is negative); false when there are too few.
func stripLeadingSlashes(name string, strip int) (string, bool) {
	s := strip
	n := 0
	for k := 0; k < len(name); k++ {
		if name[k] == '/' {
			for k+1 < len(name) && name[k+1] == '/' {
				k++
			}
			if strip < 0 {
				n = k + 1
			} else {
				s--
				if s >= 0 {
					n = k + 1
				}
			}
		}
	}
	if (strip < 0 || s <= 0) && n < len(name) {
		return name[n:], true
	}
	return "", false
}

func (p *patcher) parseName(s []byte, i int) (string, bool, int) {
	i = skipSpaces(s, i)
	var name string
	if at(s, i) == '"' {
		n, end, ok := parseCString(s, i)
		if !ok {
			return "", false, end
		}
		name, i = n, end
	} else {
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		name, i = string(s[i:j]), j
	}
	name, ok := stripLeadingSlashes(name, p.strip)
	return name, ok, i
}

// fetchname reads a file name (and its time stamp) from a header line
// into pname[which]; it returns the time stamp (sec -1 if none).
func (p *patcher) fetchname(at []byte, which int, wantStamp bool) stamp {
	st := stamp{sec: -1}
	i := skipSpaces(at, 0)
	var name string
	t := i
	if i < len(at) && at[i] == '"' {
		n, end, ok := parseCString(at, i)
		if !ok {
			return st
		}
		name, t = n, end
	} else {
		for t = i; t < len(at); t++ {
			if isSpace(at[t]) {
				u := t
				for at[u] != '\t' && u+1 < len(at) && isSpace(at[u+1]) {
					u++
				}
				if at[u] != '\t' && bytes.IndexByte(at[u+1:], '\t') >= 0 {
					continue
				}
				break
			}
		}
		name = string(at[i:t])
	}
	if name == "/dev/null" {
		st = stamp{sec: 0}
		if which == nameNew {
			return st
		}
		p.ptimestamp[which] = st
		return st
	}
	name, ok := stripLeadingSlashes(name, p.strip)
	if !ok {
		return st
	}
	u := len(at)
	if u > t && at[u-1] == '\n' {
		u--
	}
	if u > t && at[u-1] == '\r' {
		u--
	}
	timestr := string(at[t:u])
	if t < len(at) && at[t] != '\n' {
		st = p.parseStamp(at[t:])
	}
	p.pname[which], p.hasName[which] = name, true
	p.ptimestr[which], p.hasTimestr[which] = timestr, true
	if which == nameOld {
		p.ptimestamp[which] = st
	}
	return st
}

func (p *patcher) fetchnameIndex(at []byte) {
	i := skipSpaces(at, 0)
	var name string
	t := i
	if i < len(at) && at[i] == '"' {
		n, _, ok := parseCString(at, i)
		if !ok {
			return
		}
		name = n
	} else {
		for t = i; t < len(at); t++ {
			if isSpace(at[t]) {
				u := t
				for at[u] != '\t' && u+1 < len(at) && isSpace(at[u+1]) {
					u++
				}
				if at[u] != '\t' && bytes.IndexByte(at[u+1:], '\n') >= 0 {
					continue
				}
				break
			}
		}
		name = string(at[i:t])
	}
	if name == "/dev/null" {
		return
	}
	name, ok := stripLeadingSlashes(name, p.strip)
	if !ok {
		return
	}
	p.pname[nameIndex], p.hasName[nameIndex] = name, true
}

// stamp is a header time stamp; sec -1 when absent or unparsable.
type stamp struct {
	sec  int64
	nsec int64
}

// parseStamp reads the time after a file name in a header. A time
// within the possible time zone offsets of the Epoch means the file does
// not exist.
func (p *patcher) parseStamp(s []byte) stamp {
	str := strings.TrimSpace(string(s))
	loc := p.loc
	if p.setUTC {
		loc = time.UTC
	}
	t, ok := parseHeaderTime(str, loc)
	if !ok {
		return stamp{sec: -1}
	}
	u := t.Unix()
	if !(p.setTime || p.setUTC) && u > -25*3600 && u < 26*3600 {
		return stamp{sec: 0}
	}
	return stamp{sec: u, nsec: int64(t.Nanosecond())}
}

var headerTimeLayouts = []string{
	"2006-01-02 15:04:05.999999999 -0700",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04:05",
	"Mon Jan _2 15:04:05 2006",
	"Mon Jan _2 15:04:05.999999999 2006",
	"Mon Jan _2 15:04:05 -0700 2006",
	"Mon Jan _2 15:04:05 MST 2006",
	"2006-01-02",
}

func parseHeaderTime(s string, loc *time.Location) (time.Time, bool) {
	for _, layout := range headerTimeLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

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
func (p *patcher) pchCopy() bool   { return p.pcopy[0] && p.pcopy[1] }
