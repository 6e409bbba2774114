package sed

import (
	"bufio"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/internal/posixre"
)

// This file compiles a sed script the way GNU sed 4.9's compile.c does:
// the script is read one character at a time (inchar/savchar), so that
// error messages carry GNU's exact "char N" positions, and the pieces
// given with -e and -f are compiled one after the other with their state
// (open blocks, a/i/c text continued by a trailing backslash) carried over.

const eof = -1

type addrKind uint8

const (
	addrLine  addrKind = iota + 1 // N
	addrLast                      // $
	addrRegex                     // /re/ or \cREc
	addrStep                      // first~step
	addrPlus                      // +N (second address only)
	addrMult                      // ~N (second address only)
)

type address struct {
	kind   addrKind
	n1, n2 int64
	re     *regex // nil for an empty regex: the last regex used
}

type rangeState uint8

const (
	rangeInactive rangeState = iota
	rangeActive
	rangeClosed
)

type command struct {
	a1, a2 *address
	bang   bool
	state  rangeState
	end    int64 // last line of an active numeric range
	name   byte

	text   []byte    // a i c
	label  string    // b t T :
	jump   int       // b t T {: index of the target command
	intArg int       // q Q l: -1 when absent
	fname  string    // r
	rfile  *readFile // R
	out    *output   // w W
	sub    *subst
	ymap   *[256]byte
	yrunes map[rune]rune
}

// fatalError ends sed with a message ("sed: " is added) and status.
type fatalError struct {
	msg    string
	status int
}

func (e *fatalError) Error() string { return e.msg }

// chunk is one piece of script: an -e expression or an -f file.
type chunk struct {
	text   []byte
	isFile bool
	name   string // file name as given
}

type blockInfo struct {
	index int
	loc   location
}

type location struct {
	isFile bool
	name   string
	line   int
	expr   int
}

type labelDef struct {
	name  string
	index int
}

type compiler struct {
	ex      *executor
	ere     bool
	posix   bool
	sandbox bool

	cmds   []*command
	blocks []blockInfo
	labels []labelDef
	jumps  []int

	pending    []byte // a/i/c text still open at the end of a chunk
	hasPending bool
	pendingCmd *command

	// current chunk
	src      []byte
	pos      int
	loc      location
	exprSeen int
	first    bool

	quiet bool // #n on the first line

	wfiles []*output // in order of first appearance
	rfiles []*readFile
}

func (p *compiler) fail(why string) {
	panic(&fatalError{msg: p.where() + why, status: exitBadUsage})
}

func (p *compiler) where() string {
	return p.loc.prefix(p.pos)
}

func (l location) prefix(pos int) string {
	if l.isFile {
		return fmt.Sprintf("file %s line %d: ", l.name, l.line)
	}
	return fmt.Sprintf("-e expression #%d, char %d: ", l.expr, pos)
}

func (p *compiler) inchar() int {
	if p.pos >= len(p.src) {
		return eof
	}
	c := p.src[p.pos]
	p.pos++
	if c == '\n' {
		p.loc.line++
	}
	return int(c)
}

func (p *compiler) savchar(c int) {
	if c == eof {
		return
	}
	if c == '\n' && p.loc.line > 0 {
		p.loc.line--
	}
	p.pos--
}

func isBlank(c int) bool { return c == ' ' || c == '\t' }

func isSpace(c int) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

func (p *compiler) inNonblank() int {
	for {
		c := p.inchar()
		if !isBlank(c) {
			return c
		}
	}
}

func (p *compiler) inInteger(c int) int64 {
	var n int64
	for isDigit(c) {
		if n < 1<<58 {
			n = n*10 + int64(c-'0')
		}
		c = p.inchar()
	}
	p.savchar(c)
	return n
}

func (p *compiler) readEndOfCmd() {
	c := p.inNonblank()
	if c == '}' || c == '#' {
		p.savchar(c)
	} else if c != eof && c != '\n' && c != ';' {
		p.fail("extra characters after command")
	}
}

// compile compiles all chunks; it returns the program or a fatal error.
func (p *compiler) compile(chunks []chunk) (err error) {
	defer func() {
		if r := recover(); r != nil {
			fe, ok := r.(*fatalError)
			if !ok {
				panic(r)
			}
			err = fe
		}
	}()
	for i, ch := range chunks {
		p.src, p.pos = ch.text, 0
		p.first = i == 0
		if ch.isFile {
			p.loc = location{isFile: true, name: ch.name, line: 1}
		} else {
			p.exprSeen++
			p.loc = location{expr: p.exprSeen}
		}
		p.compileChunk()
	}
	// After the last chunk GNU's position is gone: errors say "char 0".
	p.pos = 0
	p.src = nil
	if len(p.blocks) > 0 {
		b := p.blocks[len(p.blocks)-1]
		p.loc = b.loc
		p.fail("unmatched `{'")
	}
	if p.hasPending {
		p.pendingCmd.text = normalizeText(p.pending, textBuffer)
		p.hasPending = false
	}
	for _, j := range p.jumps {
		cmd := p.cmds[j]
		if cmd.label == "" {
			cmd.jump = len(p.cmds)
			continue
		}
		found := -1
		for k := len(p.labels) - 1; k >= 0; k-- {
			if p.labels[k].name == cmd.label {
				found = p.labels[k].index
				break
			}
		}
		if found < 0 {
			panic(&fatalError{msg: fmt.Sprintf("can't find label for jump to `%s'", cmd.label), status: exitPanic})
		}
		cmd.jump = found
	}
	return nil
}

func (p *compiler) compileChunk() {
	if p.hasPending {
		p.readText(nil, '\n')
	}
	for {
		ch := p.inchar()
		for ch == ';' || isSpace(ch) {
			ch = p.inchar()
		}
		if ch == eof {
			return
		}
		cmd := &command{intArg: -1}
		var a address
		if p.compileAddress(&a, ch) {
			if a.kind == addrPlus || a.kind == addrMult {
				p.fail("invalid usage of +N or ~N as first address")
			}
			cmd.a1 = &a
			ch = p.inNonblank()
			if ch == ',' {
				var a2 address
				if !p.compileAddress(&a2, p.inNonblank()) {
					p.fail("unexpected `,'")
				}
				cmd.a2 = &a2
				ch = p.inNonblank()
			}
			if cmd.a1.kind == addrLine && cmd.a1.n1 == 0 &&
				(cmd.a2 == nil || cmd.a2.kind != addrRegex || p.posix) {
				p.fail("invalid usage of line address 0")
			}
			if cmd.a1.kind == addrLine && cmd.a1.n1 == 0 {
				cmd.state = rangeActive
			}
		}
		if ch == '!' {
			cmd.bang = true
			ch = p.inNonblank()
			if ch == '!' {
				p.fail("multiple `!'s")
			}
		}
		if p.posix {
			switch ch {
			case 'e', 'F', 'v', 'z', 'L', 'Q', 'T', 'R', 'W':
				p.badCommand(ch)
			}
		}
		if ch >= 0 {
			cmd.name = byte(ch)
		}
		switch ch {
		case '#':
			if cmd.a1 != nil {
				p.fail("comments don't accept any addresses")
			}
			ch = p.inchar()
			if ch == 'n' && p.first && p.pos == 2 && p.loc.line < 2 {
				p.quiet = true
			}
			for ch != eof && ch != '\n' {
				ch = p.inchar()
			}
			continue

		case 'v':
			arg := p.readLabel()
			if arg != "" && versionCompare(arg, "4.9") > 0 {
				p.fail("expected newer version of sed")
			}
			continue

		case '{':
			p.blocks = append(p.blocks, blockInfo{index: len(p.cmds), loc: p.loc})
			cmd.bang = !cmd.bang

		case '}':
			if len(p.blocks) == 0 {
				p.fail("unexpected `}'")
			}
			if cmd.a1 != nil {
				p.fail("`}' doesn't want any addresses")
			}
			p.readEndOfCmd()
			b := p.blocks[len(p.blocks)-1]
			p.blocks = p.blocks[:len(p.blocks)-1]
			p.cmds[b.index].jump = len(p.cmds)

		case 'e':
			if p.sandbox {
				p.fail("e/r/w commands disabled in sandbox mode")
			}
			p.fail("e command disabled in sandbox mode (commands cannot be executed)")

		case 'a', 'i', 'c':
			ch = p.inNonblank()
			if ch == eof {
				p.fail("expected \\ after `a', `c' or `i'")
			}
			if ch == '\\' {
				ch = p.inchar()
			} else {
				if p.posix {
					p.fail("expected \\ after `a', `c' or `i'")
				}
				p.savchar(ch)
				ch = '\n'
			}
			p.readText(cmd, ch)

		case ':':
			if cmd.a1 != nil {
				p.fail(": doesn't want any addresses")
			}
			label := p.readLabel()
			if label == "" {
				p.fail("\":\" lacks a label")
			}
			p.labels = append(p.labels, labelDef{name: label, index: len(p.cmds)})

		case 'T', 'b', 't':
			cmd.label = p.readLabel()
			p.jumps = append(p.jumps, len(p.cmds))

		case 'Q', 'q', 'l':
			if ch != 'l' && cmd.a2 != nil {
				p.fail("command only uses one address")
			}
			ch = p.inNonblank()
			if isDigit(ch) {
				n := p.inInteger(ch)
				if n > 1<<30 {
					n = 1 << 30
				}
				cmd.intArg = int(n)
				ch = p.inNonblank()
			}
			if ch == '}' || ch == '#' {
				p.savchar(ch)
			} else if ch != eof && ch != '\n' && ch != ';' {
				p.fail("extra characters after command")
			}

		case '=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'z', 'x':
			p.readEndOfCmd()

		case 'r':
			name := p.readFilename()
			if name == "" {
				p.fail("missing filename in r/R/w/W commands")
			}
			cmd.fname = name

		case 'R':
			name := p.readFilename()
			if name == "" {
				p.fail("missing filename in r/R/w/W commands")
			}
			cmd.rfile = p.readFileFor(name)

		case 'W', 'w':
			cmd.out = p.openWrite()

		case 's':
			p.compileSubst(cmd)

		case 'y':
			p.compileY(cmd)

		case eof:
			p.fail("missing command")

		default:
			p.badCommand(ch)
		}
		p.cmds = append(p.cmds, cmd)
	}
}

func (p *compiler) badCommand(ch int) {
	p.fail("unknown command: `" + string([]byte{byte(ch)}) + "'")
}

func (p *compiler) compileAddress(a *address, ch int) bool {
	switch {
	case ch == '/' || ch == '\\':
		if ch == '\\' {
			ch = p.inchar()
		}
		b, ok := p.matchSlash(ch, true)
		if !ok {
			p.fail("unterminated address regex")
		}
		var fl posixre.Flags
		for {
			ch = p.inNonblank()
			if p.posix {
				p.savchar(ch)
				a.kind = addrRegex
				a.re = p.compileRx(b, fl, 0)
				return true
			}
			switch ch {
			case 'I':
				fl.IgnoreCase = true
			case 'M':
				fl.Multiline = true
			default:
				p.savchar(ch)
				a.kind = addrRegex
				a.re = p.compileRx(b, fl, 0)
				return true
			}
		}
	case isDigit(ch):
		a.n1 = p.inInteger(ch)
		a.kind = addrLine
		ch = p.inNonblank()
		if ch != '~' || p.posix {
			p.savchar(ch)
		} else {
			step := p.inInteger(p.inNonblank())
			if step > 0 {
				a.n2 = step
				a.kind = addrStep
			}
		}
	case (ch == '+' || ch == '~') && !p.posix:
		a.n1 = p.inInteger(p.inNonblank())
		if ch == '+' {
			a.kind = addrPlus
		} else {
			a.kind = addrMult
		}
	case ch == '$':
		a.kind = addrLast
	default:
		return false
	}
	return true
}

// matchSlash reads up to the closing delimiter. In a regex, \n becomes a
// newline, \DELIM the delimiter, and bracket expressions are copied as
// they are (the delimiter does not end the regex inside them). In a
// replacement, backslashes are kept except before the delimiter (unless
// it is &) and before a newline.
func (p *compiler) matchSlash(slash int, regex bool) ([]byte, bool) {
	if slash >= utf8.RuneSelf {
		p.fail("delimiter character is not a single-byte character")
	}
	var b []byte
	ch := 0
	for {
		ch = p.inchar()
		if ch == eof || ch == '\n' || ch == slash {
			break
		}
		if ch == '\\' {
			ch = p.inchar()
			if ch == eof {
				break
			}
			if ch == 'n' && regex {
				ch = '\n'
			} else if ch != '\n' && (ch != slash || (!regex && ch == '&')) {
				b = append(b, '\\')
			}
		} else if ch == '[' && regex {
			var ok bool
			b, ok = p.copyBracket(b)
			if !ok {
				ch = eof
				break
			}
			continue
		}
		b = append(b, byte(ch))
	}
	if ch == '\n' {
		p.savchar(ch)
	}
	if ch != slash || ch == '\n' || ch == eof {
		return nil, false
	}
	return b, true
}

// copyBracket copies a bracket expression whose '[' was just read. It
// reports false when the expression is not closed on this line.
func (p *compiler) copyBracket(b []byte) ([]byte, bool) {
	b = append(b, '[')
	ch := p.inchar()
	if ch == '^' {
		b = append(b, '^')
		ch = p.inchar()
	}
	if ch == ']' {
		b = append(b, ']')
		ch = p.inchar()
	}
	for {
		switch {
		case ch == eof || ch == '\n':
			p.savchar(ch)
			return b, false
		case ch == ']':
			return append(b, ']'), true
		case ch == '[':
			b = append(b, '[')
			ch = p.inchar()
			if ch == ':' || ch == '.' || ch == '=' {
				delim := ch
				b = append(b, byte(ch))
				prev := -2
				for {
					ch = p.inchar()
					if ch == eof || ch == '\n' {
						p.savchar(ch)
						return b, false
					}
					b = append(b, byte(ch))
					if ch == ']' && prev == delim {
						break
					}
					prev = ch
				}
				ch = p.inchar()
			}
			continue
		}
		b = append(b, byte(ch))
		ch = p.inchar()
	}
}

func (p *compiler) readLabel() string {
	var b []byte
	ch := p.inNonblank()
	for ch != eof && ch != '\n' && !isSpace(ch) && ch != ';' && ch != '}' && ch != '#' {
		b = append(b, byte(ch))
		ch = p.inchar()
	}
	p.savchar(ch)
	return string(b)
}

func (p *compiler) readFilename() string {
	if p.sandbox {
		p.fail("e/r/w commands disabled in sandbox mode")
	}
	var b []byte
	ch := p.inNonblank()
	for ch != eof && ch != '\n' {
		b = append(b, byte(ch))
		ch = p.inchar()
	}
	return string(b)
}

func (p *compiler) openWrite() *output {
	name := p.readFilename()
	if name == "" {
		p.fail("missing filename in r/R/w/W commands")
	}
	if !p.posix {
		switch name {
		case "/dev/stdout":
			return p.ex.stdoutW
		case "/dev/stderr":
			return p.ex.stderrW
		}
	}
	for _, o := range p.wfiles {
		if o.name == name {
			return o
		}
	}
	o := &output{name: name}
	if err := openWriteFile(p.ex.c, o); err != nil {
		panic(err)
	}
	p.wfiles = append(p.wfiles, o)
	return o
}

func (p *compiler) readFileFor(name string) *readFile {
	for _, r := range p.rfiles {
		if r.name == name {
			return r
		}
	}
	r := &readFile{name: name}
	if f, err := p.ex.c.Open(name); err == nil {
		r.f = f
		r.r = bufio.NewReaderSize(f, 32<<10)
	}
	p.rfiles = append(p.rfiles, r)
	return r
}

// readText reads the text of a, i or c. leadin is the first character of
// the text, or '\n' when the text starts with the next character read.
func (p *compiler) readText(cmd *command, leadin int) {
	if cmd != nil {
		p.pending = p.pending[:0]
		p.hasPending = true
		p.pendingCmd = cmd
		cmd.text = nil
	}
	if leadin == eof {
		return
	}
	if leadin != '\n' {
		p.pending = append(p.pending, byte(leadin))
	}
	ch := p.inchar()
	for ch != eof && ch != '\n' {
		if ch == '\\' {
			ch = p.inchar()
			if ch != eof {
				p.pending = append(p.pending, '\\')
			}
		}
		if ch == eof {
			// A trailing backslash continues the text in the next chunk.
			p.pending = append(p.pending, '\n')
			p.pendingCmd.text = normalizeText(p.pending, textBuffer)
			return
		}
		p.pending = append(p.pending, byte(ch))
		ch = p.inchar()
	}
	p.pending = append(p.pending, '\n')
	p.pendingCmd.text = normalizeText(p.pending, textBuffer)
	p.hasPending = false
	p.pending = nil
}

// versionCompare compares version strings as strverscmp does for the
// usual dotted forms: digit runs numerically, other bytes as bytes.
func versionCompare(a, b string) int {
	for a != "" && b != "" {
		if isDigit(int(a[0])) && isDigit(int(b[0])) {
			i, j := 0, 0
			for i < len(a) && isDigit(int(a[i])) {
				i++
			}
			for j < len(b) && isDigit(int(b[j])) {
				j++
			}
			na, _ := strconv.ParseUint(a[:i], 10, 64)
			nb, _ := strconv.ParseUint(b[:j], 10, 64)
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			if a[0] < b[0] {
				return -1
			}
			return 1
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}
