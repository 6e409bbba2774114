package awk

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/benhoyt/goawk/lexer"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
)

// fatalError stops the program with gawk's "fatal:" message.
type fatalError struct{ msg string }

func (e *fatalError) Error() string { return e.msg }

// noFlush hides Flush from goawk, which would otherwise flush standard
// output at the end of the program, before the output pipes are closed
// (gawk closes the pipes first).
type noFlush struct{ w *bufio.Writer }

func (n noFlush) Write(p []byte) (int, error)       { return n.w.Write(p) }
func (n noFlush) WriteString(s string) (int, error) { return n.w.WriteString(s) }

// outStream is a print redirection: a file or a command's input.
type outStream struct {
	w    *bufio.Writer
	f    io.Closer
	pipe *io.PipeWriter
	done chan int // a command's exit status
}

// inStream is a getline source: a file or a command's output.
type inStream struct {
	r    *recordReader
	f    io.Closer
	pipe *io.PipeReader
	done chan int
}

// runtime holds the sandbox side of one awk run: the native functions the
// rewritten program calls.
type runtime struct {
	ctx     context.Context
	c       *builtins.Call
	out     *bufio.Writer // standard output, shared with goawk
	stdout  *procutil.LockedWriter
	stderr  *procutil.LockedWriter
	outputs map[string]*outStream
	inputs  map[string]*inStream
	order   []string // output streams in opening order
	rec     string
	fatal   error
	main    *mainReader
	charged int64 // what the program's variables hold, as last measured
	// pending is what strings built since the last check (and records
	// read by getline) were charged, until the check measures them.
	pending int64
	// steps is how many steps pass from the last check to the next one
	// (what the last check allowed, less what was cut when the check was
	// brought forward); lastInput is the main input's bytes at the last
	// check.
	steps, lastInput int64
	// lastCheck is when the last check ran.
	lastCheck time.Time
	// subRegexes are the compiled patterns of sub and gsub on long
	// targets, subOut the last such result (see subst.go).
	subRegexes map[string]*subRegex
	subOut     string
	// loc is where gawk says run-time messages come from ("cmd. line:1: "
	// for a one-line program), or "".
	loc string
}

// elementCost is what goawk spends on an array element beside its key
// and value bytes: the map slot, the value cell and the string headers.
const elementCost = 80

// held charges what the memory check measured (bytes of keys and values,
// and elements) to the call's memory budget, in place of what was charged
// before, and returns how many steps may pass before the next check (the
// new __bb_c): at most checkSteps, fewer when the steps since the last
// check read so much input that checkSteps of them could hold more than
// checkInput bytes, or took so long that checkSteps of them would take
// more than checkEvery.
//
// It is also where a cancelled call stops, besides goawk's own check of
// the context between opcodes (see Run): every loop iteration, function
// call and record passes a tick, so the check comes at least every
// checkSteps steps.
func (rt *runtime) held(bytes, elements int) (int, error) {
	if err := rt.ctx.Err(); err != nil {
		return 0, err
	}
	size := int64(bytes) + int64(elements)*elementCost
	rt.c.Shrink(rt.pending)
	rt.pending = 0
	if size > rt.charged {
		if err := rt.c.Grow(size - rt.charged); err != nil {
			return 0, rt.fail("%s", builtins.ErrText(err))
		}
	} else {
		rt.c.Shrink(rt.charged - size)
	}
	rt.charged = size
	n := rt.steps
	in := rt.main.read - rt.lastInput
	now := time.Now()
	took := now.Sub(rt.lastCheck)
	rt.lastInput, rt.lastCheck = rt.main.read, now
	next := int64(checkSteps)
	if in > 0 && n > 0 {
		next = min(next, max(1, checkInput*n/in))
	}
	if took > checkEvery && n > 0 {
		next = min(next, max(1, int64(checkEvery)*n/int64(took)))
	}
	rt.steps = next
	return int(next), nil
}

// soon brings the next check forward to the next step: it returns the new
// __bb_c for the steps left, left.
func (rt *runtime) soon(left int) int {
	left = max(left, 1)
	rt.steps -= int64(left - 1)
	return 1
}

// big charges a string of sizedMin bytes or more as it is built, and
// brings the next check forward (returning the new __bb_c for the steps
// left, left) once such strings add up to more than checkInput since the
// last check.
//
// A string of a mebibyte or more is charged twice: goawk builds such
// strings (concatenation of many parts, sprintf, gsub) in buffers that
// double, so the peak that made it was about twice its size.
func (rt *runtime) big(s string, left int) (int, error) {
	return rt.presize(len(s), left)
}

// presize charges a string of n bytes about to be built, like big.
func (rt *runtime) presize(n, left int) (int, error) {
	if n >= 1<<20 {
		n *= 2
	}
	if err := rt.charge(n); err != nil {
		return 0, err
	}
	return rt.dueCheck(left), nil
}

// charge charges n bytes until the next check.
func (rt *runtime) charge(n int) error {
	if err := rt.c.Grow(int64(n)); err != nil {
		return rt.fail("%s", builtins.ErrText(err))
	}
	rt.pending += int64(n)
	return nil
}

// checkInput bounds the bytes that may come in (main input read, strings
// built) between two checks.
const checkInput = 1 << 20

// checkEvery is about the longest time between two checks once the steps
// have been timed: a cancelled call stops within it however long each
// step takes (index() over a 20 MB string, 3 ms a step, ran 3 s between
// checks of 1024 steps).
const checkEvery = 10 * time.Millisecond

func newRuntime(ctx context.Context, c *builtins.Call) *runtime {
	rt := &runtime{
		ctx:     ctx,
		c:       c,
		stdout:  &procutil.LockedWriter{W: c.Stdout},
		stderr:  &procutil.LockedWriter{W: c.Stderr},
		outputs: map[string]*outStream{},
		inputs:  map[string]*inStream{},
	}
	rt.out = bufio.NewWriterSize(rt.stdout, 64<<10)
	rt.steps = 1 // the first BEGIN sets __bb_c to 1
	rt.lastCheck = time.Now()
	rt.main = &mainReader{rt: rt}
	return rt
}

func (rt *runtime) fail(format string, args ...any) error {
	err := &fatalError{fmt.Sprintf(format, args...)}
	if rt.fatal == nil {
		rt.fatal = err
	}
	return err
}

func (rt *runtime) warn(format string, args ...any) {
	rt.out.Flush()
	fmt.Fprintf(rt.stderr, "%s: warning: %s\n", rt.c.Name(), fmt.Sprintf(format, args...))
}

// funcs are the native functions of the rewritten program.
func (rt *runtime) funcs() map[string]any {
	m := map[string]any{
		nOut:      rt.output,
		nGetFile:  rt.getFile,
		nGetCmd:   rt.getCmd,
		nRecord:   func() string { return rt.rec },
		nClose:    rt.close,
		nFlush:    rt.fflush,
		nSystem:   rt.system,
		nFilename: func() string { return rt.main.name },
		nSkipFile: rt.main.skip,
		nArg:      rt.main.arg,
		nSync:     rt.main.sync,
		nSetRS:    rt.main.setRS,
		nHeld:     rt.held,
		fBig:      rt.big,
		fPresize:  rt.presize,
		nSubst:    rt.substitute,
		nSubOut:   rt.subResult,
		nDue:      rt.dueCheck,
	}
	for name, f := range extFuncs() {
		m[extNames[name]] = f
	}
	m[extNames["gensub"]] = rt.gensub
	return m
}

func (rt *runtime) sub(cmd string) *builtins.Call {
	sub := rt.c.Sub([]string{"sh", "-c", cmd})
	// The command gets an empty standard input: the sandbox shell copies
	// its input eagerly, which would take awk's own input away.
	sub.Stdin = strings.NewReader("")
	sub.Stdout = rt.stdout
	sub.Stderr = rt.stderr
	return sub
}

// output implements print and printf with a redirection.
func (rt *runtime) output(kind int, dest, text string) (int, error) {
	return 0, rt.write(kind, dest, text)
}

func (rt *runtime) write(kind int, dest, text string) error {
	if s, ok := rt.outputs[dest]; ok {
		_, err := s.w.WriteString(text)
		return rt.writeErr(dest, err)
	}
	if kind != 3 {
		switch dest {
		case "/dev/stdout", "-", "/dev/fd/1":
			_, err := rt.out.WriteString(text)
			return err
		case "/dev/stderr", "/dev/fd/2":
			rt.out.Flush()
			_, err := io.WriteString(rt.stderr, text)
			return err
		}
	}
	if _, ok := rt.inputs[dest]; ok {
		return rt.fail("can't redirect to `%s' (it is open for reading)", dest)
	}
	s := &outStream{}
	switch kind {
	case 1, 2:
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if kind == 2 {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := rt.c.OpenFile(dest, flag, 0o666)
		if err != nil {
			return rt.fail("cannot redirect to `%s': %s", dest, builtins.ErrText(err))
		}
		s.f = f
		s.w = bufio.NewWriterSize(f, 32<<10)
	case 3:
		rt.out.Flush()
		pr, pw := io.Pipe()
		s.pipe = pw
		s.done = make(chan int, 1)
		s.w = bufio.NewWriterSize(pw, 32<<10)
		sub := rt.sub(dest)
		sub.Stdin = pr
		go func() {
			st := rt.c.Exec(rt.ctx, sub)
			pr.CloseWithError(builtins.ErrPipeClosed)
			s.done <- st
		}()
	}
	rt.outputs[dest] = s
	rt.order = append(rt.order, dest)
	_, err := s.w.WriteString(text)
	return rt.writeErr(dest, err)
}

func (rt *runtime) writeErr(dest string, err error) error {
	if err == nil {
		return nil
	}
	if builtins.IsBrokenPipe(err) {
		// The command stopped reading: drop the output, as gawk does
		// when SIGPIPE is ignored for pipes.
		return nil
	}
	return rt.fail("%s: %s", dest, builtins.ErrText(err))
}

// closeOut flushes and closes an output stream, returning its status.
func (rt *runtime) closeOut(name string, s *outStream) int {
	err := s.w.Flush()
	st := 0
	if s.pipe != nil {
		s.pipe.Close()
		st = <-s.done
	} else if s.f != nil {
		if cerr := s.f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil && !builtins.IsBrokenPipe(err) {
		rt.warn("close of `%s' failed: %s", name, builtins.ErrText(err))
		if st == 0 {
			st = -1
		}
	}
	return st
}

func (rt *runtime) closeIn(s *inStream) int {
	if s.pipe != nil {
		s.pipe.CloseWithError(builtins.ErrPipeClosed)
		return <-s.done
	}
	if s.f != nil {
		s.f.Close()
	}
	return 0
}

// close implements close(name).
func (rt *runtime) close(name string) int {
	st := -1
	if s, ok := rt.outputs[name]; ok {
		rt.out.Flush()
		st = rt.closeOut(name, s)
		delete(rt.outputs, name)
		for i, n := range rt.order {
			if n == name {
				rt.order = append(rt.order[:i], rt.order[i+1:]...)
				break
			}
		}
	}
	if s, ok := rt.inputs[name]; ok {
		st = rt.closeIn(s)
		delete(rt.inputs, name)
	}
	return st
}

// closeAll ends the run: output streams are flushed and closed, commands
// waited for, then standard output is flushed.
func (rt *runtime) closeAll() error {
	for _, name := range rt.order {
		if s, ok := rt.outputs[name]; ok {
			rt.closeOut(name, s)
		}
	}
	rt.outputs = map[string]*outStream{}
	rt.order = nil
	for name, s := range rt.inputs {
		rt.closeIn(s)
		delete(rt.inputs, name)
	}
	rt.main.close()
	return rt.out.Flush()
}

// fflush implements fflush() (all) and fflush(name).
func (rt *runtime) fflush(name string, all int) int {
	if all != 0 || name == "" {
		rt.flushAll()
		return 0
	}
	if s, ok := rt.outputs[name]; ok {
		if err := s.w.Flush(); err != nil && !builtins.IsBrokenPipe(err) {
			return -1
		}
		return 0
	}
	switch name {
	case "/dev/stdout", "-":
		rt.out.Flush()
		return 0
	case "/dev/stderr":
		return 0
	}
	rt.warn("fflush: `%s' is not an open file, pipe or co-process", name)
	return -1
}

func (rt *runtime) flushAll() {
	rt.out.Flush()
	for _, name := range rt.order {
		rt.outputs[name].w.Flush()
	}
}

// system runs a command in the sandbox shell.
func (rt *runtime) system(cmd string) int {
	rt.flushAll()
	return rt.c.Exec(rt.ctx, rt.sub(cmd))
}

// getFile implements getline < file: 1 with the record in rt.rec, 0 at
// end of file, -1 when the file cannot be read.
func (rt *runtime) getFile(name, rs string) int {
	s, ok := rt.inputs[name]
	if !ok {
		if _, ok := rt.outputs[name]; ok {
			return -1
		}
		var r io.Reader
		var closer io.Closer
		switch name {
		case "-", "/dev/stdin", "/dev/fd/0":
			r = rt.c.Stdin
		default:
			f, err := rt.c.Open(name)
			if err != nil {
				return -1
			}
			if fi, err := f.Stat(); err == nil && fi.IsDir() {
				f.Close()
				return -1
			}
			r, closer = f, f
		}
		s = &inStream{r: newRecordReader(r, rt), f: closer}
		rt.inputs[name] = s
	}
	return rt.read(s, rs)
}

// getCmd implements cmd | getline.
func (rt *runtime) getCmd(cmd, rs string) int {
	s, ok := rt.inputs[cmd]
	if !ok {
		if _, ok := rt.outputs[cmd]; ok {
			return -1
		}
		rt.flushAll()
		pr, pw := io.Pipe()
		s = &inStream{r: newRecordReader(pr, rt), pipe: pr, done: make(chan int, 1)}
		sub := rt.sub(cmd)
		sub.Stdout = pw
		go func() {
			st := rt.c.Exec(rt.ctx, sub)
			pw.Close()
			s.done <- st
		}()
		rt.inputs[cmd] = s
	}
	return rt.read(s, rs)
}

func (rt *runtime) read(s *inStream, rs string) int {
	if err := rt.ctx.Err(); err != nil {
		return -1
	}
	rec, ok, err := s.r.next(rs)
	if err != nil && !ok {
		return -1
	}
	if !ok {
		return 0
	}
	rt.rec = rec
	return 1
}

// recordReader splits a stream into records by RS: one character, ""
// (paragraphs) or a regular expression.
type recordReader struct {
	r   *bufio.Reader
	buf []byte // regex mode: the rest of the input
	all bool
	re  *regexp.Regexp
	rs  string
	// readAll holds the input in memory (regex mode), charging it.
	readAll func(io.Reader) ([]byte, error)
	// charge charges a long record as it is read.
	charge func(int) error
}

func newRecordReader(r io.Reader, rt *runtime) *recordReader {
	return &recordReader{r: bufio.NewReaderSize(r, 64<<10), readAll: rt.readAll, charge: rt.charge}
}

// line reads up to and including delim. A line longer than the buffer is
// kept in pieces, charged twice (the pieces and the string made of them)
// as it grows, so that a line with no end (/dev/zero) ends on the budget.
func (rr *recordReader) line(delim byte) (string, error) {
	frag, err := rr.r.ReadSlice(delim)
	if err != bufio.ErrBufferFull {
		return string(frag), err
	}
	var pieces [][]byte
	n := 0
	for err == bufio.ErrBufferFull {
		if cerr := rr.charge(2 * len(frag)); cerr != nil {
			return "", cerr
		}
		pieces = append(pieces, bytes.Clone(frag))
		n += len(frag)
		frag, err = rr.r.ReadSlice(delim)
	}
	var b strings.Builder
	b.Grow(n + len(frag))
	for _, p := range pieces {
		b.Write(p)
	}
	b.Write(frag)
	return b.String(), err
}

// readAll reads the rest of a getline source into memory, charged to the
// call's memory budget.
func (rt *runtime) readAll(r io.Reader) ([]byte, error) { return rt.c.ReadAll(rt.ctx, r) }

func (rr *recordReader) next(rs string) (string, bool, error) {
	switch {
	case len(rs) == 1 && !rr.all:
		line, err := rr.line(rs[0])
		if len(line) > 0 && (err == nil || err == io.EOF) {
			if line[len(line)-1] == rs[0] {
				line = line[:len(line)-1]
			}
			return line, true, nil
		}
		if err == io.EOF {
			return "", false, nil
		}
		return "", false, err
	case rs == "" && !rr.all:
		// Paragraph mode: skip blank lines, then read to the next one.
		for {
			b, err := rr.r.ReadByte()
			if err != nil {
				if err == io.EOF {
					return "", false, nil
				}
				return "", false, err
			}
			if b != '\n' {
				rr.r.UnreadByte()
				break
			}
		}
		var rec strings.Builder
		for {
			line, err := rr.line('\n')
			if err != nil && err != io.EOF {
				return "", false, err
			}
			if line == "\n" {
				break
			}
			rec.WriteString(line)
			if err != nil {
				break
			}
		}
		return strings.TrimSuffix(rec.String(), "\n"), true, nil
	}
	// Regex separator (or the separator changed after a regex one):
	// work on the rest of the input in memory.
	if !rr.all {
		data, err := rr.readAll(rr.r)
		if err != nil {
			return "", false, err
		}
		rr.buf, rr.all = data, true
	}
	if len(rr.buf) == 0 {
		return "", false, nil
	}
	if rs == "" {
		rr.buf = bytes.TrimLeft(rr.buf, "\n")
		if len(rr.buf) == 0 {
			return "", false, nil
		}
		rs = "\n\n+"
	}
	if rs != rr.rs {
		re, err := regexp.Compile(rs)
		if err != nil {
			re = regexp.MustCompile(regexp.QuoteMeta(rs))
		}
		rr.re, rr.rs = re, rs
	}
	loc := rr.re.FindIndex(rr.buf)
	if loc == nil || loc[1] == loc[0] && loc[0] == 0 {
		rec := string(rr.buf)
		rr.buf = nil
		if rs == "\n\n+" {
			rec = strings.TrimRight(rec, "\n")
		}
		return rec, true, nil
	}
	rec := string(rr.buf[:loc[0]])
	rr.buf = rr.buf[loc[1]:]
	return rec, true, nil
}

// mainReader is goawk's standard input: it serves the input operands one
// after the other, ending each with EOF. goawk sees "-" for every operand
// and starts a new input file (FNR = 0) at each.
type mainReader struct {
	rt    *runtime
	queue []string
	// rs is goawk's RS as far as it decides how the next input file is
	// split; queueRS[i] is the RS that a command-line assignment sets
	// before queue[i] is read.
	rs      string
	queueRS []*string
	nextRS  *string
	next    int
	started bool
	stdin   bool // the default standard input was used
	cur     io.Reader
	closer  io.Closer
	name    string // FILENAME
	eof     bool
	opened  bool  // a file was read
	read    int64 // bytes served
}

// arg registers operand i; goawk gets back what to put in its ARGV.
func (m *mainReader) arg(i int, s string) string {
	if i == 0 || s == "" {
		return s
	}
	if isAssignment(s) {
		if v, ok := strings.CutPrefix(s, "RS="); ok {
			if u, err := lexer.Unescape(v); err == nil {
				v = u
			}
			m.nextRS = &v
		}
		return escape(s)
	}
	m.queue = append(m.queue, s)
	m.queueRS = append(m.queueRS, m.nextRS)
	m.nextRS = nil
	return "-"
}

// setRS notes an assignment to RS by the program.
func (m *mainReader) setRS(_ string, rs string) int {
	m.rs = rs
	return 1
}

// sync starts the final ARGV pass unless input was already read.
func (m *mainReader) sync() int {
	if m.started {
		return 0
	}
	m.queue, m.queueRS, m.nextRS = nil, nil, nil
	return 1
}

func isAssignment(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// skip implements nextfile: the rest of the current file is dropped.
func (m *mainReader) skip() {
	m.close()
	m.eof = false
}

func (m *mainReader) close() {
	if m.closer != nil {
		m.closer.Close()
	}
	m.cur, m.closer = nil, nil
}

func (m *mainReader) open() error {
	for {
		if m.next >= len(m.queue) {
			if len(m.queue) == 0 && !m.stdin {
				m.stdin = true
				m.cur, m.name = m.rt.c.Stdin, "-"
				return nil
			}
			return io.EOF
		}
		name := m.queue[m.next]
		if rs := m.queueRS[m.next]; rs != nil {
			m.rs = *rs
		}
		m.next++
		if name == "-" || name == "/dev/stdin" {
			m.cur, m.name = m.rt.c.Stdin, name
			return nil
		}
		f, err := m.rt.c.Open(name)
		if err != nil {
			return m.rt.fail("cannot open file `%s' for reading: %s", name, builtins.ErrText(err))
		}
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			f.Close()
			m.rt.warn("command line argument `%s' is a directory: skipped", name)
			continue
		}
		m.cur, m.closer, m.name = f, f, name
		m.opened = true
		return nil
	}
}

func (m *mainReader) Read(p []byte) (int, error) {
	m.started = true
	if err := m.rt.ctx.Err(); err != nil {
		return 0, err
	}
	if m.eof {
		// The file ended with the last read: end this input file.
		m.eof = false
		return 0, io.EOF
	}
	if m.cur == nil {
		if err := m.open(); err != nil {
			return 0, err
		}
		if m.rs == "\n" {
			// goawk splits this file at newlines and drops the \r of
			// each \r\n, which gawk keeps: give it the \r twice.
			m.cur = &keepCR{r: m.cur}
		}
	}
	n, err := m.cur.Read(p)
	m.read += int64(n)
	if err == io.EOF {
		m.close()
		if n > 0 {
			m.eof = true
			return n, nil
		}
		return 0, io.EOF
	}
	if err != nil && !errors.Is(err, io.EOF) {
		name := m.name
		m.close()
		return n, m.rt.fail("error reading input file `%s': %s", name, builtins.ErrText(err))
	}
	return n, err
}
