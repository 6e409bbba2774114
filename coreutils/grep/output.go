package grep

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/readahead"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const (
	firstRead = 32 << 10  // the first read of a file, where NULs mark it binary
	chunkSize = 256 << 10 // later reads
)

// grepper is one grep invocation.
type grepper struct {
	ctx     context.Context
	c       *builtins.Call
	cfg     *config
	m       *matcher
	out     *bufio.Writer
	colors  *colors
	outFile bool

	matched bool  // some line was selected
	errSeen bool  // an error was reported
	used    bool  // some line was output (for group separators)
	quit    bool  // stop everything (-q matched, write error, cancelled)
	werr    error // the write error that stopped us

	buf  []byte
	hits [][2]int
	num  []byte
	tick int

	limit   *matchLimit
	ahead   *ahead             // the workers of a parallel recursive search, or nil
	listers *readahead.Listers // reading directories ahead of the walk, or nil
	rec     *recording         // in a worker: where its output goes
}

// flush pushes standard output out before a message on standard error;
// a worker records where, so that the replay flushes at the same point.
func (g *grepper) flush() error {
	err := g.out.Flush()
	if g.rec != nil {
		g.rec.add('f', nil)
	}
	return err
}

// pline is a line kept for leading context across buffer refills.
type pline struct {
	text   []byte
	lineNo int64
	off    int64
}

// scan is the state of searching one file.
type scan struct {
	g     *grepper
	name  string
	width int // -T: width of line numbers and offsets

	base    int64 // byte offset of data[0]
	cntPos  int   // lines are counted up to this position of data
	cntLine int64 // number of line terminators before cntPos

	nsel        int64
	lastPrinted int64 // line number of the last line output, 0 if none
	afterLeft   int64
	maxReached  bool
	pend        []pline

	quietOut   bool // no line output: -c, -l, -L, -q, or a binary file
	stopOnSel  bool // stop at the first selected line
	binary     bool // the data holds NULs
	binSel     bool // a line was selected after the data turned binary
	encErr     bool // a line was not output for holding an encoding error
	done       bool
	needLines  bool
	hasContext bool
}

func (g *grepper) write(p []byte) {
	if g.werr != nil {
		return
	}
	if _, err := g.out.Write(p); err != nil {
		g.werr = err
		g.quit = true
	}
}

func (g *grepper) writeString(s string) {
	if g.werr != nil {
		return
	}
	if _, err := g.out.WriteString(s); err != nil {
		g.werr = err
		g.quit = true
	}
}

func (g *grepper) writeByte(b byte) {
	if g.werr != nil {
		return
	}
	if err := g.out.WriteByte(b); err != nil {
		g.werr = err
		g.quit = true
	}
}

// searchReader searches one input. size is the file's size for -T
// alignment, or -1 when unknown.
func (g *grepper) searchReader(r io.Reader, name string, size int64) {
	cfg := g.cfg
	s := &scan{g: g, name: name}
	s.hasContext = cfg.before >= 0 || cfg.after >= 0
	s.needLines = cfg.lineNumber || s.hasContext
	s.quietOut = cfg.quiet || cfg.list != 0 || cfg.count
	s.stopOnSel = cfg.quiet || cfg.list != 0
	if cfg.initialTab {
		if size >= 0 {
			s.width = len(strconv.FormatInt(size+1, 10))
		} else {
			s.width = 19
		}
	}
	minRoom := firstRead // what a read needs free before it starts
	if g.buf == nil {
		g.buf = takeReadBuf()
	}
	if g.buf == nil {
		// small to start with: grep in a loop over small files must not
		// allocate a full chunk each time; a file that fills it grows it
		src := r
		if ro, ok := r.(readerOnly); ok {
			src = ro.r // the file, for its size
		}
		minRoom = min(firstRead, textio.ReadSize(src))
		g.buf = make([]byte, 0, minRoom+4096)
	}
	buf := g.buf[:0]
	eof := false
	first := true
	filled := false // the last fill used all the room it had
	for !eof && !s.done && !g.quit {
		if g.ctx.Err() != nil {
			g.quit = true
			break
		}
		// fill the buffer: the first read up to firstRead bytes, then a chunk
		want := chunkSize
		if first {
			want = firstRead
		}
		if room := cap(buf) - len(buf); room < minRoom || (filled && room < want) {
			// grow geometrically: a long line must not cost quadratic copying
			nb := make([]byte, len(buf), max(2*cap(buf), len(buf)+want+4096))
			copy(nb, buf)
			buf = nb
		}
		start := len(buf)
		limit := len(buf) + min(want, cap(buf)-len(buf))
		for len(buf) < limit {
			n, err := r.Read(buf[len(buf):limit])
			buf = buf[:len(buf)+n]
			if err != nil {
				if err != io.EOF {
					g.flushErr(name, err)
				}
				eof = true
				break
			}
			if n == 0 {
				continue
			}
			// like GNU, work on what one read returned once it holds a
			// whole line (a slow pipe must not stall -q or -m)
			if bytes.IndexByte(buf[len(buf)-n:], cfg.eol) >= 0 {
				break
			}
		}
		filled = len(buf) == limit
		if !s.binary && cfg.binary != binText && cfg.eol == '\n' && bytes.IndexByte(buf[start:], 0) >= 0 {
			if cfg.binary == binWithoutMatch {
				s.nsel = 0
				s.done = true
				break
			}
			s.binary = true
			if !cfg.count {
				s.quietOut, s.stopOnSel = true, true
			}
		}
		first = false
		if s.binary {
			zap(buf[start:])
		}
		cut := bytes.LastIndexByte(buf, cfg.eol) + 1
		if eof && cut < len(buf) {
			buf = append(buf, cfg.eol)
			cut = len(buf)
		}
		if cut == 0 {
			continue
		}
		s.chunk(buf[:cut])
		s.base += int64(cut)
		rest := copy(buf, buf[cut:])
		buf = buf[:rest]
	}
	if cap(buf) <= 4*chunkSize {
		g.buf = buf[:0]
	}
	s.finish()
}

// readBufs keeps read buffers (*[]byte) from one grep to the next: xargs
// runs grep once per batch of names, each run with workers of its own,
// and every one of them grew a buffer anew (a chunk for the first file
// over firstRead bytes): most of what `xargs grep` allocated.
var readBufs sync.Pool

func takeReadBuf() []byte {
	if p, ok := readBufs.Get().(*[]byte); ok {
		return (*p)[:0]
	}
	return nil
}

// giveReadBuf hands a grepper's buffer back when it is done searching.
func giveReadBuf(g *grepper) {
	if g.buf != nil && cap(g.buf) <= 4*chunkSize {
		b := g.buf[:0]
		readBufs.Put(&b)
	}
	g.buf = nil
}

// zap turns NULs into newlines, as GNU grep does in binary data, so that
// they end lines.
func zap(b []byte) {
	for {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return
		}
		b[i] = '\n'
		b = b[i+1:]
	}
}

func (g *grepper) flushErr(name string, err error) {
	g.errSeen = true
	if !g.cfg.noMessages {
		g.flush()
		g.c.FileError(name, err, 2)
	}
}

// finish reports the file's result: count, name, binary message.
func (s *scan) finish() {
	g, cfg := s.g, s.g.cfg
	if s.nsel > 0 {
		g.matched = true
	}
	if cfg.quiet {
		if s.nsel > 0 {
			g.quit = true
		}
		return
	}
	if cfg.count && cfg.list == 0 {
		if g.outFile {
			g.printName(s.name)
			if cfg.nullName {
				g.writeByte(0)
			} else {
				g.printSep(':')
			}
		}
		g.num = strconv.AppendInt(g.num[:0], s.nsel, 10)
		g.write(g.num)
		g.writeByte('\n')
	}
	if cfg.list == 'l' && s.nsel > 0 || cfg.list == 'L' && s.nsel == 0 {
		g.printName(s.name)
		if cfg.nullName {
			g.writeByte(0)
		} else {
			g.writeByte('\n')
		}
	}
	if cfg.lineBuf {
		g.out.Flush()
	}
	if cfg.binary == binBinary && !cfg.count && cfg.list == 0 && (s.encErr || s.binSel) {
		if err := g.flush(); err != nil && g.werr == nil {
			g.werr = err
			g.quit = true
			return
		}
		g.c.Errorf("%s: binary file matches", s.name)
	}
}

// lineNo returns the number of the line starting at p (positions asked
// for must not decrease within a chunk).
func (s *scan) lineNo(data []byte, p int) int64 {
	if p > s.cntPos {
		s.cntLine += int64(bytes.Count(data[s.cntPos:p], []byte{s.g.cfg.eol}))
		s.cntPos = p
	}
	return s.cntLine + 1
}

// chunk processes data, a run of whole lines.
func (s *scan) chunk(data []byte) {
	g, cfg, m := s.g, s.g.cfg, s.g.m
	m.newChunk()
	s.cntPos = 0
	pos := 0
	for pos < len(data) && !s.done && !g.quit {
		g.tick++
		if g.tick&255 == 0 && g.ctx.Err() != nil {
			g.quit = true
			break
		}
		if s.maxReached {
			s.trailing(data, pos)
			break
		}
		ls, le := m.nextLine(data, pos)
		runEnd := ls
		if ls < 0 {
			runEnd = len(data)
		}
		if pos < runEnd {
			pos = s.run(data, pos, runEnd)
			if s.done || s.maxReached {
				continue
			}
		}
		if ls < 0 {
			break
		}
		if cfg.invert {
			s.context(data, ls, le)
		} else {
			s.selected(data, ls, le)
		}
		pos = le + 1
	}
	if s.needLines {
		s.lineNo(data, len(data))
	}
	s.keepPending(data)
}

// run handles lines in data[a:b] that do not match; it returns where it
// stopped.
func (s *scan) run(data []byte, a, b int) int {
	cfg := s.g.cfg
	if cfg.invert {
		for a < b && !s.done && !s.maxReached && !s.g.quit {
			if s.g.tick++; s.g.tick&1023 == 0 && s.g.ctx.Err() != nil {
				s.g.quit = true
				break
			}
			le := a + bytes.IndexByte(data[a:b], cfg.eol)
			s.selected(data, a, le)
			a = le + 1
		}
		return a
	}
	// non-selected lines: only trailing context matters here
	for a < b && s.afterLeft > 0 && !s.g.quit {
		le := a + bytes.IndexByte(data[a:b], cfg.eol)
		s.context(data, a, le)
		a = le + 1
	}
	return b
}

// trailing prints the context after the last selected line once -m is
// reached: the next -A lines, whatever they hold.
func (s *scan) trailing(data []byte, pos int) {
	cfg := s.g.cfg
	for pos < len(data) && s.afterLeft > 0 && !s.g.quit {
		le := pos + bytes.IndexByte(data[pos:], cfg.eol)
		s.context(data, pos, le)
		pos = le + 1
	}
	if s.afterLeft == 0 {
		s.done = true
	}
}

// context handles a non-selected line: printed when trailing context is
// still due.
func (s *scan) context(data []byte, ls, le int) {
	if s.afterLeft <= 0 || s.quietOut {
		return
	}
	s.afterLeft--
	var n int64
	if s.needLines {
		n = s.lineNo(data, ls)
	}
	s.printLine(data[ls:le], '-', n, s.base+int64(ls))
}

// selected handles a selected line.
func (s *scan) selected(data []byte, ls, le int) {
	g, cfg := s.g, s.g.cfg
	s.nsel++
	if s.binary {
		s.binSel = true
	}
	if s.nsel == cfg.maxCount {
		s.maxReached = true
	}
	if s.stopOnSel {
		s.done = true
		if cfg.quiet {
			g.quit = true
		}
		return
	}
	if s.quietOut {
		if s.maxReached {
			s.done = true
		}
		return
	}
	var n int64
	if s.needLines {
		n = s.lineNo(data, ls)
	}
	if cfg.before > 0 {
		s.printBefore(data, ls, n)
	}
	s.printLine(data[ls:le], ':', n, s.base+int64(ls))
	s.afterLeft = cfg.after
	if s.maxReached && s.afterLeft <= 0 {
		s.done = true
	}
}

// printBefore prints the leading context of the line starting at ls,
// numbered n: up to -B lines not output yet.
func (s *scan) printBefore(data []byte, ls int, n int64) {
	cfg := s.g.cfg
	want := cfg.before
	if s.lastPrinted > 0 && n-s.lastPrinted-1 < want {
		want = n - s.lastPrinted - 1
	}
	if want <= 0 {
		return
	}
	// walk back in data
	starts := make([]int, 0, 8)
	p := ls
	for int64(len(starts)) < want && p > 0 {
		q := bytes.LastIndexByte(data[:p-1], cfg.eol) + 1
		starts = append(starts, q)
		p = q
	}
	missing := want - int64(len(starts))
	if missing > 0 {
		k := len(s.pend) - int(missing)
		if k < 0 {
			k = 0
		}
		for _, pl := range s.pend[k:] {
			if pl.lineNo <= s.lastPrinted && s.lastPrinted > 0 {
				continue
			}
			s.printLine(pl.text, '-', pl.lineNo, pl.off)
		}
	}
	for i := len(starts) - 1; i >= 0; i-- {
		a := starts[i]
		e := a + bytes.IndexByte(data[a:], cfg.eol)
		s.printLine(data[a:e], '-', n-int64(i)-1, s.base+int64(a))
	}
}

// keepPending saves the last -B lines of data for leading context in the
// next chunk.
func (s *scan) keepPending(data []byte) {
	cfg := s.g.cfg
	if cfg.before <= 0 || s.quietOut {
		return
	}
	want := int(min(cfg.before, 1<<20))
	var lines []pline
	p := len(data)
	lineNo := s.cntLine // number of the last line of data
	for len(lines) < want && p > 0 {
		q := bytes.LastIndexByte(data[:p-1], cfg.eol) + 1
		lines = append(lines, pline{text: append([]byte(nil), data[q:p-1]...), lineNo: lineNo, off: s.base + int64(q)})
		lineNo--
		p = q
	}
	// reverse into file order, after what is kept from before
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	if len(lines) < want {
		keep := want - len(lines)
		if keep < len(s.pend) {
			s.pend = s.pend[len(s.pend)-keep:]
		}
		s.pend = append(s.pend, lines...)
	} else {
		s.pend = lines
	}
}

// printLine outputs one line (selected with sep ':' or context with '-').
func (s *scan) printLine(text []byte, sep byte, lineNo, off int64) {
	g, cfg := s.g, s.g.cfg
	if s.hasContext {
		if g.used && (s.lastPrinted == 0 || lineNo != s.lastPrinted+1) && !cfg.noGroupSep {
			g.colors.start(g, g.colors.se)
			g.writeString(cfg.groupSep)
			g.colors.end(g, g.colors.se)
			g.writeByte('\n')
		}
		s.lastPrinted = lineNo
		g.used = true
	}
	matching := (sep == ':') != cfg.invert
	if cfg.only {
		if !matching {
			return
		}
		g.hits = g.m.matches(text, g.hits[:0])
		for _, h := range g.hits {
			part := text[h[0]:h[1]]
			if cfg.binary == binBinary && cfg.utf8 && !utf8.Valid(part) {
				s.encErr = true
				continue
			}
			s.head(sep, lineNo, off+int64(h[0]), len(part))
			c := g.colors.ms
			if sep == '-' {
				c = g.colors.mc
			}
			g.colors.start(g, c)
			g.write(part)
			g.colors.end(g, c)
			g.writeByte(cfg.eol)
		}
		g.used = true
		if cfg.lineBuf {
			g.out.Flush()
		}
		return
	}
	if cfg.binary == binBinary && cfg.utf8 && !utf8.Valid(text) {
		s.encErr = true
		return
	}
	s.head(sep, lineNo, off, len(text))
	if g.colors.on {
		s.colorBody(text, sep, matching)
	} else {
		g.write(text)
	}
	g.writeByte(cfg.eol)
	g.used = true
	if cfg.lineBuf {
		g.out.Flush()
	}
}

// head prints the file name, line number and byte offset prefixes.
func (s *scan) head(sep byte, lineNo, off int64, n int) {
	g, cfg := s.g, s.g.cfg
	if g.outFile {
		g.printName(s.name)
		if cfg.nullName {
			g.writeByte(0)
		} else {
			g.printSep(sep)
		}
	}
	if cfg.lineNumber {
		s.printNum(lineNo, g.colors.lnColor())
		g.printSep(sep)
	}
	if cfg.byteOffset {
		s.printNum(off, g.colors.bnColor())
		g.printSep(sep)
	}
	if cfg.initialTab && (g.outFile || cfg.lineNumber || cfg.byteOffset) && n != 0 {
		g.writeByte('\t')
	}
}

func (s *scan) printNum(v int64, color string) {
	g := s.g
	g.num = strconv.AppendInt(g.num[:0], v, 10)
	g.colors.start(g, color)
	for i := len(g.num); i < s.width; i++ {
		g.writeByte(' ')
	}
	g.write(g.num)
	g.colors.end(g, color)
}

func (g *grepper) printName(name string) {
	g.colors.start(g, g.colors.fnColor())
	g.writeString(name)
	g.colors.end(g, g.colors.fnColor())
}

func (g *grepper) printSep(sep byte) {
	g.colors.start(g, g.colors.seColor())
	g.writeByte(sep)
	g.colors.end(g, g.colors.seColor())
}

// colorBody writes a line with its matches highlighted.
func (s *scan) colorBody(text []byte, sep byte, matching bool) {
	g := s.g
	cl := g.colors
	lineColor, otherColor := cl.sl, cl.cx
	if sep == '-' {
		lineColor, otherColor = otherColor, lineColor
	}
	if cl.rv && g.cfg.invert {
		lineColor = otherColor
	}
	matchColor := cl.ms
	if sep == '-' {
		matchColor = cl.mc
	}
	pos := 0
	if matching && matchColor != "" {
		g.hits = g.m.matches(text, g.hits[:0])
		for _, h := range g.hits {
			if h[0] > pos {
				cl.start(g, lineColor)
				g.write(text[pos:h[0]])
				cl.end(g, lineColor)
			}
			cl.start(g, matchColor)
			g.write(text[h[0]:h[1]])
			cl.end(g, matchColor)
			pos = h[1]
		}
	}
	tail := text[pos:]
	if len(tail) > 0 && tail[len(tail)-1] == '\r' && lineColor != "" {
		cl.start(g, lineColor)
		g.write(tail[:len(tail)-1])
		cl.end(g, lineColor)
		g.writeByte('\r')
		return
	}
	if len(tail) > 0 {
		cl.start(g, lineColor)
		g.write(tail)
		cl.end(g, lineColor)
	}
}
