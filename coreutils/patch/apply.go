package patch

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

// locateHunk finds where the current hunk applies with the given fuzz:
// the line number, or 0. It searches outward from the expected place,
// alternating after and before it.
func (p *patcher) locateHunk(fuzz int) int {
	firstGuess := p.first + p.inOffset
	patLines := p.ptrnLines
	prefixCtx, suffixCtx := p.prefixContext, p.suffixContext
	context := max(prefixCtx, suffixCtx)
	prefixFuzz := fuzz + prefixCtx - context
	suffixFuzz := fuzz + suffixCtx - context
	inputLines := p.inputLines()
	maxWhere := inputLines - (patLines - suffixFuzz) + 1
	minWhere := p.lastFrozen + 1
	maxPos := maxWhere - firstGuess
	maxNeg := firstGuess - minWhere
	maxOffset := max(maxPos, maxNeg)

	if patLines == 0 {
		return firstGuess
	}
	if firstGuess <= maxNeg {
		maxNeg = firstGuess - 1
	}
	if prefixFuzz < 0 && p.first <= 1 {
		// Can only match the start of the file.
		if suffixFuzz < 0 && (patLines != inputLines || prefixCtx < p.lastFrozen) {
			// Can only match the entire file.
			return 0
		}
		offset := 1 - firstGuess
		if p.lastFrozen <= prefixCtx && offset <= maxPos && p.patchMatch(firstGuess, offset, 0, suffixFuzz) {
			p.inOffset += offset
			return firstGuess + offset
		}
		return 0
	} else if prefixFuzz < 0 {
		prefixFuzz = 0
	}
	if suffixFuzz < 0 {
		// Can only match the end of the file.
		offset := firstGuess - (inputLines - patLines + 1)
		if offset <= maxNeg && p.patchMatch(firstGuess, -offset, prefixFuzz, 0) {
			p.inOffset -= offset
			return firstGuess - offset
		}
		return 0
	}
	minOffset := 0
	switch {
	case maxPos < 0:
		minOffset = firstGuess - maxWhere
	case maxNeg < 0:
		minOffset = firstGuess - minWhere
	}
	for offset := minOffset; offset <= maxOffset; offset++ {
		if offset&1023 == 0 && p.ctx.Err() != nil {
			return 0
		}
		if offset <= maxPos && p.patchMatch(firstGuess, offset, prefixFuzz, suffixFuzz) {
			p.inOffset += offset
			return firstGuess + offset
		}
		if offset <= maxNeg && p.patchMatch(firstGuess, -offset, prefixFuzz, suffixFuzz) {
			p.inOffset -= offset
			return firstGuess - offset
		}
	}
	return 0
}

// patchMatch reports whether the hunk's old lines match at base+offset.
func (p *patcher) patchMatch(base, offset, prefixFuzz, suffixFuzz int) bool {
	patLines := p.ptrnLines - suffixFuzz
	iline := base + offset + prefixFuzz
	for pline := 1 + prefixFuzz; pline <= patLines; pline, iline = pline+1, iline+1 {
		in := p.ifetch(iline)
		pl := p.pline[pline]
		if p.canonicalizeWS {
			if !similar(in, pl) {
				return false
			}
		} else if !bytes.Equal(in, pl) {
			return false
		}
	}
	return true
}

// similar compares lines ignoring differences in runs of blanks and the
// trailing newline (-l).
func similar(a, b []byte) bool {
	if len(a) > 0 && a[len(a)-1] == '\n' {
		a = a[:len(a)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	for {
		if len(b) == 0 || blank(b[0]) {
			for len(b) > 0 && blank(b[0]) {
				b = b[1:]
			}
			if len(a) > 0 {
				if !blank(a[0]) {
					return false
				}
				for len(a) > 0 && blank(a[0]) {
					a = a[1:]
				}
			}
			if len(a) == 0 || len(b) == 0 {
				return len(a) == len(b)
			}
		} else if len(a) == 0 || a[0] != b[0] {
			return false
		} else {
			a, b = a[1:], b[1:]
		}
	}
}

func (p *patcher) checkLineEndings(where int) bool {
	pl := p.lineAt(1)
	if len(pl) == 0 {
		return false
	}
	patchCRLF := len(pl) >= 2 && pl[len(pl)-2] == '\r' && pl[len(pl)-1] == '\n'
	if p.inputLines() == 0 {
		return false
	}
	if where > p.inputLines() {
		where = p.inputLines()
	}
	in := p.ifetch(where)
	if len(in) == 0 {
		return false
	}
	inputCRLF := len(in) >= 2 && in[len(in)-2] == '\r' && in[len(in)-1] == '\n'
	return patchCRLF != inputCRLF
}

// writeLine writes hunk line i to the output; it reports whether the line
// ended with a newline.
func (p *patcher) writeLine(i int) bool {
	l := p.pline[i]
	p.obuf.Write(l)
	return len(l) > 0 && l[len(l)-1] == '\n'
}

// copyTill copies input lines up to lastline to the output.
func (p *patcher) copyTill(lastline int) bool {
	if p.lastFrozen > lastline {
		p.say("misordered hunks! output would be garbled\n")
		return false
	}
	for p.lastFrozen < lastline {
		p.lastFrozen++
		s := p.ifetch(p.lastFrozen)
		if len(s) > 0 {
			if !p.afterNewline {
				p.obuf.WriteByte('\n')
			}
			p.obuf.Write(s)
			p.afterNewline = s[len(s)-1] == '\n'
			p.zeroOutput = false
		}
	}
	return true
}

func (p *patcher) spewOutput() {
	if p.lastFrozen < p.inputLines() {
		p.copyTill(p.inputLines())
	}
}

// applyHunk applies the current hunk at line where.
func (p *patcher) applyHunk(where int) bool {
	const (
		outside = iota
		inIfndef
		inIfdef
		inElse
	)
	old := 1
	lastline := p.ptrnLines
	nw := lastline + 1
	defState := outside
	defs := p.doDefines
	patEnd := p.pend
	w := p.obuf
	nl := func() string {
		if p.afterNewline {
			return ""
		}
		return "\n"
	}
	// enter opens the #ifndef (old lines) or #ifdef (new lines) section
	// unless the output is in it: from the other one through #else.
	enter := func(oldLines bool) {
		open, other, directive := inIfdef, inIfndef, "#ifdef"
		if oldLines {
			open, other, directive = inIfndef, inIfdef, "#ifndef"
		}
		switch defState {
		case outside:
			fmt.Fprintf(w, "%s%s %s\n", nl(), directive, defs)
			defState = open
		case other:
			fmt.Fprintf(w, "%s#else\n", nl())
			defState = inElse
		}
	}
	where--
	for p.charAt(nw) == '=' || p.charAt(nw) == '\n' {
		nw++
	}
	for old <= lastline {
		switch {
		case p.charAt(old) == '-':
			if !p.copyTill(where + old - 1) {
				return false
			}
			if defs != "" {
				enter(true)
				p.afterNewline = p.writeLine(old)
				p.zeroOutput = false
			}
			p.lastFrozen++
			old++
		case nw > patEnd:
			goto done
		case p.charAt(nw) == '+':
			if !p.copyTill(where + old - 1) {
				return false
			}
			if defs != "" {
				enter(false)
			}
			p.afterNewline = p.writeLine(nw)
			p.zeroOutput = false
			nw++
		case p.charAt(nw) != p.charAt(old):
			p.mangled(old, nw)
		case p.charAt(nw) == '!':
			if !p.copyTill(where + old - 1) {
				return false
			}
			if defs != "" {
				fmt.Fprintf(w, "#ifndef %s\n", defs)
				defState = inIfndef
			}
			for {
				if defs != "" {
					p.afterNewline = p.writeLine(old)
				}
				p.lastFrozen++
				old++
				if p.charAt(old) != '!' {
					break
				}
			}
			if defs != "" {
				fmt.Fprintf(w, "%s#else\n", nl())
				defState = inElse
			}
			for {
				p.afterNewline = p.writeLine(nw)
				nw++
				if p.charAt(nw) != '!' {
					break
				}
			}
			p.zeroOutput = false
		default:
			old++
			nw++
			if defs != "" && defState != outside {
				fmt.Fprintf(w, "%s#endif\n", nl())
				p.afterNewline = true
				defState = outside
			}
		}
	}
done:
	if nw <= patEnd && p.charAt(nw) == '+' {
		if !p.copyTill(where + old - 1) {
			return false
		}
		if defs != "" {
			enter(false)
		}
		for {
			if !p.afterNewline {
				w.WriteByte('\n')
			}
			p.afterNewline = p.writeLine(nw)
			p.zeroOutput = false
			nw++
			if !(nw <= patEnd && p.charAt(nw) == '+') {
				break
			}
		}
	}
	if defs != "" && defState != outside {
		fmt.Fprintf(w, "%s#endif\n", nl())
		p.afterNewline = true
	}
	p.outOffset += p.replLines - p.ptrnLines
	return true
}

func (p *patcher) mangled(old, nw int) {
	p.fatal("Out-of-sync patch, lines %d,%d -- mangled text or line numbers, maybe?", p.hunkBeg+old, p.hunkBeg+nw)
}

// Rejects.

func (p *patcher) headerLine(tag string, which int) string {
	name := "/dev/null"
	if p.hasName[which] {
		name = p.pname[which]
	}
	return tag + " " + name + p.ptimestr[which] + "\n"
}

func unidiffRange(start, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(start-1) + ",0"
	case 1:
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(count)
}

func (p *patcher) abortHunk(outname string, header, reverse bool) {
	if p.rej == nil {
		p.rej = &bytes.Buffer{}
	}
	if p.rejectFormat == uniDiff || (p.rejectFormat == noDiff && p.diffType == uniDiff) {
		p.abortUnified(header, reverse)
	} else {
		p.abortContext(header, reverse)
	}
}

func (p *patcher) abortUnified(header, reverse bool) {
	r := p.rej
	old := 1
	lastline := p.ptrnLines
	nw := lastline + 1
	if header {
		if p.hasName[nameIndex] {
			fmt.Fprintf(r, "Index: %s\n", p.pname[nameIndex])
		}
		r.WriteString(p.headerLine("---", b2i(reverse)))
		r.WriteString(p.headerLine("+++", b2i(!reverse)))
	}
	fmt.Fprintf(r, "@@ -%s +%s @@", unidiffRange(p.first+p.outOffset, lastline), unidiffRange(p.newfirst+p.outOffset, p.replLines))
	if p.hasCFunction {
		r.WriteString(p.cFunction)
	}
	r.WriteByte('\n')
	for p.charAt(nw) == '=' || p.charAt(nw) == '\n' {
		nw++
	}
	if p.diffType != uniDiff {
		p.pchNormalize(uniDiff)
	}
	for ; ; old, nw = old+1, nw+1 {
		for ; p.charAt(old) == '-'; old++ {
			r.WriteByte('-')
			r.Write(p.pline[old])
		}
		for ; p.charAt(nw) == '+'; nw++ {
			r.WriteByte('+')
			r.Write(p.pline[nw])
		}
		if old > lastline {
			break
		}
		if p.charAt(nw) != p.charAt(old) {
			p.mangled(old, nw)
		}
		r.WriteByte(' ')
		r.Write(p.pline[old])
	}
	if p.charAt(nw) != '^' {
		p.mangled(old, nw)
	}
}

func (p *patcher) abortContext(header, reverse bool) {
	r := p.rej
	oldfirst := p.first + p.outOffset
	newfirst := p.newfirst + p.outOffset
	oldlast := oldfirst + p.ptrnLines - 1
	newlast := newfirst + p.replLines - 1
	stars, minuses := "", " -----"
	if p.diffType >= newContextDiff {
		stars, minuses = " ****", " ----"
	}
	if p.diffType == uniDiff {
		p.pchNormalize(newContextDiff)
	}
	if header {
		if p.hasName[nameIndex] {
			fmt.Fprintf(r, "Index: %s\n", p.pname[nameIndex])
		}
		r.WriteString(p.headerLine("***", b2i(reverse)))
		r.WriteString(p.headerLine("---", b2i(!reverse)))
	}
	r.WriteString("***************")
	if p.hasCFunction {
		r.WriteString(p.cFunction)
	}
	r.WriteByte('\n')
	for i := 0; i <= p.pend; i++ {
		switch c := p.charAt(i); c {
		case '*':
			switch {
			case oldlast < oldfirst:
				fmt.Fprintf(r, "*** 0%s\n", stars)
			case oldlast == oldfirst:
				fmt.Fprintf(r, "*** %d%s\n", oldfirst, stars)
			default:
				fmt.Fprintf(r, "*** %d,%d%s\n", oldfirst, oldlast, stars)
			}
		case '=':
			switch {
			case newlast < newfirst:
				fmt.Fprintf(r, "--- 0%s\n", minuses)
			case newlast == newfirst:
				fmt.Fprintf(r, "--- %d%s\n", newfirst, minuses)
			default:
				fmt.Fprintf(r, "--- %d,%d%s\n", newfirst, newlast, minuses)
			}
		case ' ', '-', '+', '!':
			r.WriteByte(c)
			r.WriteByte(' ')
			r.Write(p.pline[i])
		case '\n':
			r.Write(p.pline[i])
		default:
			p.fatal("fatal internal error in abort_hunk_context")
		}
	}
}

func (p *patcher) saveRejects(rej string) {
	data := p.rej.Bytes()
	key := p.abs(rej)
	if p.hasRejName {
		if !p.rejWritten {
			p.rejWritten = true
			if err := p.writeFile(rej, data, 0o666, false); err != nil {
				p.pfatal(err, "Can't create file %s", p.quote(rej))
			}
		} else {
			p.appendFile(rej, data)
		}
		return
	}
	if p.created[key] {
		p.appendFile(rej, data)
		return
	}
	if err := p.writeFile(rej, data, 0o666, false); err != nil {
		p.pfatal(err, "Can't create file %s", p.quote(rej))
	}
	p.created[key] = true
}

func (p *patcher) appendFile(name string, data []byte) {
	f, err := p.c.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		p.pfatal(err, "Can't reopen file %s", p.quote(name))
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		p.pfatal(err, "write error")
	}
}

// Output files.

// makedirs creates the missing directories of name.
func (p *patcher) makedirs(name string) {
	dir := path.Dir(p.abs(name))
	p.c.FS.MkdirAll(dir, 0o777&^p.c.Umask)
}

// writeFile creates or replaces name with data; with exactMode the mode
// is set as is, else the umask applies.
func (p *patcher) writeFile(name string, data []byte, mode fs.FileMode, exactMode bool) error {
	abs := p.abs(name)
	if fi, _, err := p.c.FS.LstatIfPossible(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		p.c.FS.Remove(abs)
	}
	perm := mode &^ p.c.Umask
	f, err := p.c.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil && isNotExist(err) {
		p.makedirs(name)
		f, err = p.c.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if exactMode {
		p.c.FS.Chmod(abs, mode)
	} else {
		p.c.FS.Chmod(abs, perm)
	}
	return nil
}

func isNotExist(err error) bool {
	return err != nil && (os.IsNotExist(err) || strings.Contains(err.Error(), "no such file"))
}

// backupName is the name of the backup of name: PREFIX, BASENAME-PREFIX
// and SUFFIX if given, else numbered or simple as the version control
// style says.
func (p *patcher) backupName(name string) string {
	if p.origPrae != "" || p.origBase != "" || p.origSuff != "" {
		dir, base := "", name
		if k := strings.LastIndexByte(name, '/'); k >= 0 {
			dir, base = name[:k+1], name[k+1:]
		}
		return p.origPrae + dir + p.origBase + base + p.origSuff
	}
	switch p.versionControl {
	case "t", "numbered":
		return p.numberedBackup(name)
	case "never", "simple":
		return name + p.simpleSuffix
	case "none", "off":
		return name + p.simpleSuffix
	default: // nil, existing
		if p.highestBackup(name) > 0 {
			return p.numberedBackup(name)
		}
		return name + p.simpleSuffix
	}
}

func (p *patcher) highestBackup(name string) int {
	dir, base := path.Split(name)
	if dir == "" {
		dir = "."
	}
	entries, err := p.c.ReadDir(dir)
	if err != nil {
		return 0
	}
	highest := 0
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, base+".~") && strings.HasSuffix(n, "~") {
			if v, err := strconv.Atoi(n[len(base)+2 : len(n)-1]); err == nil && v > highest {
				highest = v
			}
		}
	}
	return highest
}

func (p *patcher) numberedBackup(name string) string {
	return fmt.Sprintf("%s.~%d~", name, p.highestBackup(name)+1)
}

// createBackup backs up name before it changes (once per run); a file
// that does not exist gets an empty backup. With leaveOriginal the file
// is copied, else moved.
func (p *patcher) createBackup(name string, leaveOriginal, ignoreSeen bool) {
	key := p.abs(name)
	if p.backedUp[key] && !ignoreSeen {
		return
	}
	bak := p.backupName(name)
	st, err := p.statFile(name)
	if err != nil {
		p.c.FS.Remove(p.abs(bak))
		if werr := p.writeFile(bak, nil, 0o666, false); werr != nil {
			p.pfatal(werr, "Can't create file %s", p.quote(bak))
		}
		return
	}
	if !leaveOriginal {
		p.c.FS.Remove(p.abs(bak))
		if err := p.c.FS.Rename(p.abs(name), p.abs(bak)); err == nil {
			return
		}
		p.makedirs(bak)
		if err := p.c.FS.Rename(p.abs(name), p.abs(bak)); err == nil {
			return
		}
	}
	if st.mode&typeLink != 0 {
		t, _ := p.c.FS.ReadlinkIfPossible(p.abs(name))
		p.c.FS.Remove(p.abs(bak))
		p.makedirs(bak)
		p.c.FS.SymlinkIfPossible(t, p.abs(bak))
		if !leaveOriginal {
			p.c.FS.Remove(p.abs(name))
		}
		return
	}
	data, rerr := p.readAll(name)
	if rerr != nil {
		p.pfatal(rerr, "Can't reopen file %s", p.quote(name))
	}
	if err := p.writeFile(bak, data, st.mode.Perm(), true); err != nil {
		p.pfatal(err, "Can't create file %s", p.quote(bak))
	}
	if !st.mtime.IsZero() {
		p.c.FS.Chtimes(p.abs(bak), st.mtime, st.mtime)
	}
	if !leaveOriginal {
		p.c.FS.Remove(p.abs(name))
	}
}

func (p *patcher) readAll(name string) ([]byte, error) {
	f, err := p.c.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(f)
	return b.Bytes(), err
}

// outputFile puts the patched text in place: at once, or at the end of
// the git diff series it belongs to.
func (p *patcher) outputFile(data []byte, to string, mode fs.FileMode, exactMode, backup bool) {
	if p.ofile != nil {
		return
	}
	if !exactMode {
		mode = mode &^ p.c.Umask
		exactMode = true
	}
	q := queuedOutput{data: append([]byte(nil), data...), to: to, mode: mode, backup: backup}
	if p.gitDiff && p.saysNonexistent[b2i(p.reverse)] != 2 {
		p.queued = append(p.queued, q)
		return
	}
	p.outputNow(q)
}

func (p *patcher) outputNow(q queuedOutput) {
	if q.backup {
		p.createBackup(q.to, false, false)
	}
	if p.fileType&typeLink != 0 {
		abs := p.abs(q.to)
		p.c.FS.Remove(abs)
		p.makedirs(q.to)
		if err := p.c.FS.SymlinkIfPossible(string(q.data), abs); err != nil {
			p.pfatal(err, "Can't create symbolic link %s", p.quote(q.to))
		}
	} else if err := p.writeFile(q.to, q.data, q.mode, true); err != nil {
		p.pfatal(err, "Can't create file %s", p.quote(q.to))
	}
	key := p.abs(q.to)
	p.backedUp[key] = true
	p.created[key] = true
	delete(p.deleteLater, key)
}

func (p *patcher) hasQueued(name string) bool {
	key := p.abs(name)
	for _, q := range p.queued {
		if p.abs(q.to) == key {
			return true
		}
	}
	return false
}

func (p *patcher) flushOutputs() {
	q := p.queued
	p.queued = nil
	for _, o := range q {
		p.outputNow(o)
	}
}

func (p *patcher) deleteFileLater(name string, backup bool) {
	st, err := p.statFile(name)
	if err != nil {
		p.pfatal(err, "Can't get file attributes of %s %s", "file", name)
	}
	p.deletions = append(p.deletions, deletion{name: name, backup: backup, isLink: st.mode&typeLink != 0})
	p.deleteLater[p.abs(name)] = true
}

func (p *patcher) runDeletions() {
	for _, d := range p.deletions {
		key := p.abs(d.name)
		if !p.deleteLater[key] {
			continue
		}
		if p.verbosity == verbose {
			kind := "file"
			if d.isLink {
				kind = "symbolic link"
			}
			p.say("Removing %s %s\n", kind, p.quote(d.name))
		}
		if d.backup {
			p.createBackup(d.name, false, false)
		}
		p.c.FS.Remove(key)
		p.removeDirs(d.name)
	}
	p.deletions = nil
}

// removeDirs removes the empty parent directories of name.
func (p *patcher) removeDirs(name string) {
	for i := len(name) - 1; i > 0; i-- {
		if name[i] != '/' || name[i-1] == '/' {
			continue
		}
		if name[i-1] == '.' && (i == 1 || name[i-2] == '/' || (name[i-2] == '.' && (i == 2 || name[i-3] == '/'))) {
			continue
		}
		dir := name[:i]
		entries, err := p.c.ReadDir(dir)
		if err != nil || len(entries) > 0 {
			continue
		}
		if p.c.FS.Remove(p.abs(dir)) == nil && p.verbosity == verbose {
			p.say("Removed empty directory %s\n", p.quote(dir))
		}
	}
}
