package sed

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
)

const (
	exitBadUsage = 1
	exitBadInput = 2
	exitPanic    = 4
	// exitCancelled is returned when the context is cancelled: the edit
	// in progress is abandoned, as when GNU sed is killed by a signal.
	exitCancelled = 130
)

type action uint8

const (
	actEnd        action = iota // end of script: autoprint
	actDelete                   // d: no autoprint
	actRestart                  // D: restart without reading
	actQuit                     // q
	actQuitSilent               // Q
)

// space is the pattern or the hold space. chomped tells whether the line
// it came from ended with a delimiter; it travels with the text through
// x, g, h, G and H, as in GNU sed.
type space struct {
	b       []byte
	chomped bool
}

type appendItem struct {
	text  []byte
	fname string
	file  bool
}

// inFile is the input file being read.
type inFile struct {
	name string
	r    *bufio.Reader
	f    io.Closer
	// in-place editing
	tmpName string
	target  string
	mode    fs.FileMode
	out     *output
}

type executor struct {
	c   *builtins.Call
	ctx context.Context

	cmds       []*command
	quiet      bool
	separate   bool
	inPlace    bool
	suffix     string // in-place backup pattern; "*" means none
	follow     bool
	unbuffered bool
	posix      bool
	posixN     bool
	delim      byte
	lineWrap   int
	utf8       bool

	stdout  *output // standard output, where the output goes without -i
	stdoutW *output // "w /dev/stdout": same stream, own missing-newline state
	stderrW *output
	out     *output // current output: stdout or the in-place temporary file
	wfiles  []*output
	rfiles  []*readFile

	ps, hs   space
	tmp      []byte
	lineNo   int64
	replaced bool
	lastRe   *regex
	appendQ  []appendItem
	lastLoc  location

	files    []string
	fileIdx  int
	cur      *inFile
	curName  string
	badInput bool
	tick     int
	charged  int64 // pattern and hold space bytes charged to the budget
}

func (e *executor) fatal(status int, format string, args ...any) {
	panic(&fatalError{msg: fmt.Sprintf(format, args...), status: status})
}

// run processes all input; it returns the exit status.
func (e *executor) run() int {
	status := 0
	for e.readPattern(false) {
	again:
		act, code := e.execute()
		switch act {
		case actEnd:
			if !e.quiet {
				e.out.line(e.ps.b, e.ps.chomped, e.delim)
			}
			e.dumpAppend(false)
		case actDelete:
			e.dumpAppend(false)
		case actRestart:
			e.checkCancel()
			goto again
		case actQuit:
			if !e.quiet {
				e.out.line(e.ps.b, e.ps.chomped, e.delim)
			}
			e.dumpAppend(true)
			status = code
			e.closeCurrent()
			return e.finalStatus(status)
		case actQuitSilent:
			status = code
			e.closeCurrent()
			return e.finalStatus(status)
		}
		if e.unbuffered {
			e.out.flush()
		}
		if e.out.err != nil {
			e.writeFailed(e.out)
		}
		e.checkCancelCycle()
	}
	return e.finalStatus(status)
}

func (e *executor) finalStatus(status int) int {
	if e.badInput {
		return exitBadInput
	}
	return status
}

// checkCancel stops sed once the context is cancelled (a timeout, or a
// budget such as memory): it runs at the end of every 256th cycle, and at
// every jump back in the script (branches, D), so that an endless script
// stops too.
func (e *executor) checkCancel() {
	e.chargeSpaces()
	if e.ctx.Err() != nil {
		panic(&fatalError{status: exitCancelled})
	}
}

func (e *executor) checkCancelCycle() {
	e.tick++
	if e.tick&255 == 0 {
		e.checkCancel()
	} else {
		e.chargeSpaces()
	}
}

// chargeSpaces charges the growth of the pattern and hold spaces to the
// memory budget (H in a loop holds the whole input).
func (e *executor) chargeSpaces() {
	held := int64(cap(e.ps.b) + cap(e.hs.b))
	if held <= e.charged {
		return
	}
	if err := e.c.Grow(held - e.charged); err != nil {
		panic(&fatalError{msg: "couldn't re-allocate memory", status: exitPanic})
	}
	e.charged = held
}

// writeFailed ends sed after a failed write: quietly with 141 on a broken
// pipe, as a process killed by SIGPIPE.
func (e *executor) writeFailed(o *output) {
	if builtins.IsBrokenPipe(o.err) {
		panic(&fatalError{status: 141})
	}
	name := o.name
	if o == e.stdout || o == e.stdoutW {
		name = "stdout"
	}
	e.fatal(exitPanic, "couldn't write items to %s: %s", name, builtins.ErrText(o.err))
}

// execute runs the script over the pattern space.
func (e *executor) execute() (action, int) {
	cmds := e.cmds
	for pc := 0; pc < len(cmds); pc++ {
		cmd := cmds[pc]
		if cmd.a1 != nil {
			if e.matchAddress(cmd) == cmd.bang {
				continue
			}
		} else if cmd.bang {
			continue
		}
		switch cmd.name {
		case '{':
			pc = cmd.jump
		case '}', ':':
		case '=':
			e.out.missingNewline(e.delim)
			e.out.write(strconv.AppendInt(e.tmp[:0], e.lineNo, 10))
			e.out.writeByte(e.delim)
		case 'a':
			e.appendQ = append(e.appendQ, appendItem{text: cmd.text})
		case 'i':
			e.out.textLine(cmd.text, e.delim)
		case 'c':
			if cmd.a2 == nil || cmd.state != rangeActive {
				e.out.textLine(cmd.text, e.delim)
			}
			return actDelete, 0
		case 'b':
			pc = cmd.jump - 1
			e.checkCancel()
		case 't':
			if e.replaced {
				e.replaced = false
				pc = cmd.jump - 1
				e.checkCancel()
			}
		case 'T':
			if !e.replaced {
				pc = cmd.jump - 1
				e.checkCancel()
			} else {
				e.replaced = false
			}
		case 'd':
			return actDelete, 0
		case 'D':
			i := bytes.IndexByte(e.ps.b, e.delim)
			if i < 0 {
				return actDelete, 0
			}
			n := copy(e.ps.b, e.ps.b[i+1:])
			e.ps.b = e.ps.b[:n]
			return actRestart, 0
		case 'F':
			e.out.missingNewline(e.delim)
			e.out.write([]byte(e.curName))
			e.out.writeByte(e.delim)
		case 'g':
			e.ps.b = append(e.ps.b[:0], e.hs.b...)
			e.ps.chomped = e.hs.chomped
		case 'G':
			e.ps.b = append(append(e.ps.b, e.delim), e.hs.b...)
			e.ps.chomped = e.hs.chomped
		case 'h':
			e.hs.b = append(e.hs.b[:0], e.ps.b...)
			e.hs.chomped = e.ps.chomped
		case 'H':
			e.hs.b = append(append(e.hs.b, e.delim), e.ps.b...)
			e.hs.chomped = e.ps.chomped
		case 'l':
			w := e.lineWrap
			if cmd.intArg >= 0 {
				w = cmd.intArg
			}
			e.out.missingNewline(e.delim)
			e.tmp = appendList(e.tmp[:0], e.ps.b, w, e.delim)
			e.out.write(e.tmp)
		case 'n':
			if e.isLast() {
				return actEnd, 0
			}
			if !e.quiet {
				e.out.line(e.ps.b, e.ps.chomped, e.delim)
			}
			if !e.readPattern(false) {
				return actEnd, 0
			}
		case 'N':
			if e.isLast() {
				// GNU prints the pattern space when N finds no next
				// line; POSIX (--posix, POSIXLY_CORRECT) deletes it.
				if e.posixN {
					return actDelete, 0
				}
				return actEnd, 0
			}
			if !e.readPattern(true) {
				return actEnd, 0
			}
		case 'p':
			e.out.line(e.ps.b, e.ps.chomped, e.delim)
		case 'P':
			if i := bytes.IndexByte(e.ps.b, e.delim); i >= 0 {
				e.out.line(e.ps.b[:i], true, e.delim)
			} else {
				e.out.line(e.ps.b, e.ps.chomped, e.delim)
			}
		case 'q':
			return actQuit, max(cmd.intArg, 0) & 0xff
		case 'Q':
			return actQuitSilent, max(cmd.intArg, 0) & 0xff
		case 'r':
			e.appendQ = append(e.appendQ, appendItem{fname: cmd.fname, file: true})
		case 'R':
			e.readR(cmd.rfile)
		case 's':
			e.doSubst(cmd.sub)
		case 'w':
			cmd.out.line(e.ps.b, e.ps.chomped, e.delim)
			if cmd.out.err != nil {
				e.writeFailed(cmd.out)
			}
		case 'W':
			if i := bytes.IndexByte(e.ps.b, e.delim); i >= 0 {
				cmd.out.line(e.ps.b[:i], true, e.delim)
			} else {
				cmd.out.line(e.ps.b, e.ps.chomped, e.delim)
			}
			if cmd.out.err != nil {
				e.writeFailed(cmd.out)
			}
		case 'x':
			e.ps, e.hs = e.hs, e.ps
		case 'y':
			e.translate(cmd)
		case 'z':
			e.ps.b = e.ps.b[:0]
		}
	}
	return actEnd, 0
}

// matchAddress reports whether cmd's address selects the current line,
// keeping the state of ranges as GNU sed 4.9 does.
func (e *executor) matchAddress(cmd *command) bool {
	if cmd.a2 == nil {
		return e.matchOne(cmd.a1)
	}
	l := e.lineNo
	switch cmd.state {
	case rangeClosed:
		return false
	case rangeActive:
		switch cmd.a2.kind {
		case addrLine:
			if l > cmd.end {
				cmd.state = e.afterRange(cmd)
				return false
			}
			if l == cmd.end {
				cmd.state = e.afterRange(cmd)
			}
			return true
		case addrPlus, addrMult:
			if l >= cmd.end {
				cmd.state = e.afterRange(cmd)
			}
			return true
		default:
			if e.matchOne(cmd.a2) {
				cmd.state = e.afterRange(cmd)
			}
			return true
		}
	}
	// inactive
	if cmd.a1.kind == addrLine {
		// A line-number start that was skipped over (by n or N) still
		// opens the range, unless the range's numeric end is passed too.
		if l < cmd.a1.n1 || (l > cmd.a1.n1 && cmd.a2.kind == addrLine && l > cmd.a2.n1) {
			return false
		}
	} else if !e.matchOne(cmd.a1) {
		return false
	}
	switch cmd.a2.kind {
	case addrLine:
		if cmd.a2.n1 <= l {
			cmd.state = e.afterRange(cmd)
			return true
		}
		cmd.end = cmd.a2.n1
	case addrPlus:
		if cmd.a2.n1 == 0 {
			cmd.state = e.afterRange(cmd)
			return true
		}
		cmd.end = l + cmd.a2.n1
	case addrMult:
		if cmd.a2.n1 == 0 {
			cmd.state = e.afterRange(cmd)
			return true
		}
		cmd.end = (l/cmd.a2.n1 + 1) * cmd.a2.n1
	case addrLast:
		// GNU tests $ as soon as the range starts (which may open the
		// next input file, as F then shows).
		if e.isLast() {
			cmd.state = e.afterRange(cmd)
			return true
		}
	}
	cmd.state = rangeActive
	return true
}

// afterRange is the state of a range that ended: a range starting at a
// line number never restarts.
func (e *executor) afterRange(cmd *command) rangeState {
	if cmd.a1.kind == addrLine {
		return rangeClosed
	}
	return rangeInactive
}

func (e *executor) matchOne(a *address) bool {
	switch a.kind {
	case addrLine:
		return e.lineNo == a.n1
	case addrLast:
		return e.isLast()
	case addrRegex:
		return e.useRegex(a.re).match(e.ps.b)
	case addrStep:
		return e.lineNo >= a.n1 && (e.lineNo-a.n1)%a.n2 == 0
	case addrPlus, addrMult:
		return e.lineNo >= a.n1
	}
	return false
}

func (e *executor) useRegex(re *regex) *regex {
	if re == nil {
		if e.lastRe == nil {
			e.fatal(exitBadUsage, "%sno previous regular expression", e.lastLoc.prefix(0))
		}
		return e.lastRe
	}
	e.lastRe = re
	return re
}

func (e *executor) resetRanges() {
	for _, cmd := range e.cmds {
		if cmd.a1 != nil && cmd.a1.kind == addrLine && cmd.a1.n1 == 0 {
			cmd.state = rangeActive
		} else {
			cmd.state = rangeInactive
		}
	}
}

func (e *executor) doSubst(sub *subst) {
	re := e.useRegex(sub.re)
	ps := e.ps.b
	res := e.tmp[:0]
	if !sub.global && sub.numb <= 1 {
		var buf [2]int
		m := re.find(ps, buf[:0])
		if m == nil {
			return
		}
		res = append(res, ps[:m[0]]...)
		res = sub.appendReplacement(res, ps, m)
		res = append(res, ps[m[1]:]...)
	} else if re.isLit && sub.global && sub.numb <= 1 {
		// literal pattern replaced everywhere: no match list needed
		last, found := 0, false
		var m [2]int
		for {
			i := bytes.Index(ps[last:], re.lit)
			if i < 0 {
				break
			}
			found = true
			m[0], m[1] = last+i, last+i+len(re.lit)
			res = append(res, ps[last:m[0]]...)
			res = sub.appendReplacement(res, ps, m[:])
			last = m[1]
		}
		if !found {
			return
		}
		res = append(res, ps[last:]...)
	} else {
		n := -1
		if !sub.global {
			n = sub.numb
		}
		ms := re.findAll(ps, n)
		start := max(sub.numb, 1)
		if len(ms) < start {
			return
		}
		last := 0
		for _, m := range ms[start-1:] {
			res = append(res, ps[last:m[0]]...)
			res = sub.appendReplacement(res, ps, m)
			last = m[1]
			if !sub.global {
				break
			}
		}
		res = append(res, ps[last:]...)
	}
	e.tmp, e.ps.b = e.ps.b, res
	e.replaced = true
	if sub.print {
		e.out.line(e.ps.b, e.ps.chomped, e.delim)
	}
	if sub.out != nil {
		sub.out.line(e.ps.b, e.ps.chomped, e.delim)
		if sub.out.err != nil {
			e.writeFailed(sub.out)
		}
	}
}

func (e *executor) translate(cmd *command) {
	b := e.ps.b
	if cmd.ymap != nil {
		m := cmd.ymap
		for i, c := range b {
			b[i] = m[c]
		}
		return
	}
	res := e.tmp[:0]
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			res = append(res, b[i])
			i++
			continue
		}
		if t, ok := cmd.yrunes[r]; ok {
			res = utf8.AppendRune(res, t)
		} else {
			res = append(res, b[i:i+n]...)
		}
		i += n
	}
	e.tmp, e.ps.b = e.ps.b, res
}

func (e *executor) readR(rf *readFile) {
	if rf == nil || rf.r == nil {
		return
	}
	var line []byte
	for {
		chunk, err := rf.r.ReadSlice(e.delim)
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			e.fatal(exitPanic, "read error on %s: %s", rf.name, builtins.ErrText(err))
		}
		break
	}
	if len(line) > 0 {
		e.appendQ = append(e.appendQ, appendItem{text: line})
	}
}

// dumpAppend writes the text queued by a, r and R. q forces the missing
// newline of the last line even when nothing is queued.
func (e *executor) dumpAppend(force bool) {
	if len(e.appendQ) == 0 && !force {
		return
	}
	e.out.missingNewline(e.delim)
	for i := range e.appendQ {
		it := &e.appendQ[i]
		if !it.file {
			e.out.write(it.text)
			continue
		}
		f, err := e.c.Open(it.fname)
		if err != nil {
			continue
		}
		e.out.flushTo(f, it.fname, e)
		f.Close()
	}
	e.appendQ = e.appendQ[:0]
	if e.unbuffered {
		e.out.flush()
	}
}

func (o *output) flushTo(r io.Reader, name string, e *executor) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			o.write(buf[:n])
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			e.fatal(exitPanic, "read error on %s: %s", name, builtins.ErrText(err))
		}
	}
}
