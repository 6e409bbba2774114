package interp

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bashbox/bashbox/vfs"
	"mvdan.cc/sh/v3/syntax"
)

const readUsage = "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n"

// readOpts is a parsed read command line.
type readOpts struct {
	raw     bool
	nchars  int // -n or -N; -1 when absent
	exact   bool
	delim   byte
	array   string
	timeout time.Duration // -t; -1 when absent
	fd      int
	names   []string
}

// parseRead parses read's options as bash's getopt does; a non-zero
// status means bash's message was printed.
func (f *frame) parseRead(args []string) (readOpts, int) {
	o := readOpts{nchars: -1, delim: '\n', timeout: -1}
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch c {
			case 'r':
				o.raw = true
			case 's', 'e':
			case 'n', 'N', 'd', 'a', 'p', 't', 'u', 'i':
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						f.errorf("read: -%c: option requires an argument", c)
						f.fds.writeString(2, readUsage)
						return o, 2
					}
					i++
					val = args[i]
				}
				j = len(a)
				switch c {
				case 'n', 'N':
					n, err := strconv.Atoi(val)
					if err != nil || n < 0 {
						f.errorf("read: %s: invalid number", val)
						return o, 1
					}
					o.nchars, o.exact = n, c == 'N'
				case 'd':
					o.delim = 0
					if val != "" {
						o.delim = val[0]
					}
				case 'a':
					o.array = val
				case 't':
					secs, err := strconv.ParseFloat(val, 64)
					if err != nil || secs < 0 || strings.ContainsAny(val, "eExXpPnNiI+-") {
						f.errorf("read: %s: invalid timeout specification", val)
						return o, 1
					}
					o.timeout = time.Duration(secs * float64(time.Second))
				case 'u':
					fd, err := strconv.Atoi(val)
					if err != nil || fd < 0 {
						f.errorf("read: %s: invalid file descriptor specification", val)
						return o, 1
					}
					o.fd = fd
				}
			default:
				f.errorf("read: -%c: invalid option", c)
				f.fds.writeString(2, readUsage)
				return o, 2
			}
		}
	}
	o.names = args[i:]
	return o, 0
}

func (f *frame) biRead(args []string) int {
	o, st := f.parseRead(args)
	if st != 0 {
		return st
	}
	for _, n := range append(append([]string(nil), o.names...), o.array) {
		if n != "" && !validVarRef(n) {
			f.errorf("read: `%s': not a valid identifier", n)
			return 1
		}
	}
	s := f.fds.get(o.fd)
	if s == nil && o.fd != 0 {
		f.errorf("read: %d: invalid file descriptor: Bad file descriptor", o.fd)
		return 1
	}
	if s == nil || s.r == nil {
		f.errorf("read: read error: %d: Bad file descriptor", o.fd)
		return 1
	}
	if o.timeout == 0 {
		// input is always ready here: files, pipes and here-documents
		// have data or an end that read would see at once
		return 0
	}
	// The prompt (-p) goes to a terminal only, and input never is one.
	br := s.buffered()
	var line string
	var status int
	switch {
	case o.timeout > 0 && s.pipe != nil:
		// The read waits in the pipe until the timeout interrupts it:
		// what it read stays read (bash stores partial input), the rest
		// stays in the pipe for the next reader.
		tctx, cancel := context.WithTimeout(f.ctx, o.timeout)
		s.pipe.setInterrupt(tctx.Done())
		line, status = f.readInput(br, o)
		s.pipe.setInterrupt(nil)
		timedOut := tctx.Err() != nil
		cancel()
		if f.ctx.Err() != nil {
			return 1
		}
		if timedOut && status == 1 {
			if !f.storeRead(o, line) {
				return 1
			}
			return 128 + 14 // SIGALRM, as bash's read -t reports a timeout
		}
	case o.timeout > 0 && !mayBlock(s.reader()):
		line, status = f.readInput(br, o)
	case o.timeout > 0:
		type result struct {
			line   string
			status int
		}
		done := make(chan result, 1)
		// Input from outside the call (the caller's stdin reader) cannot
		// be interrupted: the reader waits for it until the call ends.
		f.call.goSafe(func() {
			l, st := f.readInput(br, o)
			done <- result{l, st}
		}, func(any) { done <- result{"", 1} })
		timer := time.NewTimer(o.timeout)
		select {
		case r := <-done:
			timer.Stop()
			line, status = r.line, r.status
		case <-timer.C:
			status = 128 + 14
		case <-f.ctx.Done():
			timer.Stop()
			return 1
		}
	default:
		line, status = f.readInput(br, o)
	}
	if status < 0 {
		f.stopped()
		return 1
	}
	if !f.storeRead(o, line) {
		return 1
	}
	return status
}

// readInput reads what read's options ask for. Escaped characters (no
// -r) come back preceded by NUL so that splitting leaves them whole. The
// status is 1 at end of input before a delimiter, -1 over budget.
func (f *frame) readInput(br *bufio.Reader, o readOpts) (string, int) {
	var b strings.Builder
	count := 0
	for o.nchars < 0 || count < o.nchars {
		r, size, err := br.ReadRune()
		if err != nil {
			return b.String(), 1
		}
		if r == utf8.RuneError && size == 1 {
			br.UnreadRune()
			c, _ := br.ReadByte()
			if !o.exact && c == o.delim {
				return b.String(), 0
			}
			b.WriteByte(c)
			count++
			continue
		}
		if !o.exact && r < utf8.RuneSelf && byte(r) == o.delim {
			return b.String(), 0
		}
		if !o.raw && r == '\\' {
			next, _, err := br.ReadRune()
			if err != nil {
				return b.String(), 1
			}
			if next == '\n' {
				continue
			}
			b.WriteByte(0)
			b.WriteRune(next)
			count++
			continue
		}
		b.WriteRune(r)
		count++
		if count&0xffff == 0 && !f.call.sh.Budget.fits(int64(b.Len())) {
			return "", -1
		}
	}
	return b.String(), 0
}

// storeRead assigns what read read: to the array (-a), to the names, or
// to REPLY.
func (f *frame) storeRead(o readOpts, line string) bool {
	ifs := f.ifs()
	if o.array != "" {
		fields := splitEscaped(line, ifs, 0)
		if o.exact {
			fields = []string{strings.ReplaceAll(line, "\x00", "")}
		}
		v := f.lookupRaw(o.array)
		if v != nil && v.attrs&attrReadonly != 0 {
			f.errorf("read: %s: readonly variable", o.array)
			return false
		}
		f.unsetVar(o.array)
		v = f.writable(f.scopeFor(o.array), o.array)
		if v == nil {
			return false
		}
		v.attrs |= attrIndexed
		v.idx = &sparse{}
		for i, s := range fields {
			v.idx.set(int64(i), s)
		}
		v.set = true
		return true
	}
	if len(o.names) == 0 {
		return f.softAssign("REPLY", strings.ReplaceAll(line, "\x00", ""))
	}
	var fields []string
	if o.exact {
		fields = []string{strings.ReplaceAll(line, "\x00", "")}
	} else {
		fields = splitEscaped(line, ifs, len(o.names))
	}
	ok := true
	for i, n := range o.names {
		val := ""
		if i < len(fields) {
			val = fields[i]
		}
		if !f.softAssign(n, val) {
			ok = false
		}
	}
	return ok
}

// splitIFS splits s into at most n fields by IFS as read does: IFS
// whitespace is trimmed and collapses. The last field keeps the rest of
// the line, unless only one more word and its delimiter remain.
func splitIFS(s, ifs string, n int) []string {
	isWS := func(c byte) bool { return (c == ' ' || c == '\t' || c == '\n') && strings.IndexByte(ifs, c) >= 0 }
	isSep := func(c byte) bool { return strings.IndexByte(ifs, c) >= 0 }
	// word returns the end of the word at i and where the next starts.
	word := func(i int) (int, int) {
		j := i
		for j < len(s) && !isSep(s[j]) {
			j++
		}
		end := j
		for j < len(s) && isWS(s[j]) {
			j++
		}
		if j < len(s) && isSep(s[j]) && !isWS(s[j]) {
			j++
			for j < len(s) && isWS(s[j]) {
				j++
			}
		}
		return end, j
	}
	var fields []string
	i := 0
	for i < len(s) && isWS(s[i]) {
		i++
	}
	for i < len(s) {
		end, next := word(i)
		if n > 0 && len(fields) == n-1 {
			if next >= len(s) {
				return append(fields, s[i:end])
			}
			rest := s[i:]
			for len(rest) > 0 && isWS(rest[len(rest)-1]) {
				rest = rest[:len(rest)-1]
			}
			return append(fields, rest)
		}
		fields = append(fields, s[i:end])
		i = next
	}
	return fields
}

// splitEscaped splits a line read by read on IFS; characters marked
// escaped (preceded by NUL) are never separators.
func splitEscaped(line, ifs string, n int) []string {
	if !strings.Contains(line, "\x00") {
		return splitIFS(line, ifs, n)
	}
	// Replace escaped characters by private runes, split, restore.
	var esc []rune
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		if line[i] == 0 && i+1 < len(line) {
			r, size := utf8.DecodeRuneInString(line[i+1:])
			esc = append(esc, r)
			b.WriteRune(rune(0xF0000 + len(esc) - 1))
			i += size
			continue
		}
		b.WriteByte(line[i])
	}
	fields := splitIFS(b.String(), ifs, n)
	for i, fl := range fields {
		fields[i] = strings.Map(func(r rune) rune {
			if r >= 0xF0000 && int(r-0xF0000) < len(esc) {
				return esc[r-0xF0000]
			}
			return r
		}, fl)
	}
	return fields
}

// readLine reads one line from descriptor n, without the newline.
func (f *frame) readLine(n int) (string, bool) {
	s := f.fds.get(n)
	if s == nil {
		return "", false
	}
	br := s.buffered()
	if br == nil {
		return "", false
	}
	line, err := br.ReadString('\n')
	if err != nil && line == "" {
		return "", false
	}
	return strings.TrimSuffix(line, "\n"), true
}

func readDelim(br *bufio.Reader, delim byte) (string, error) {
	s, err := br.ReadString(delim)
	if err == io.EOF && s != "" {
		return s, nil
	}
	return s, err
}

const mapfileUsage = "mapfile: usage: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\n"

// biMapfile is mapfile and readarray: lines of input into an indexed
// array, with bash's option checks and -C callbacks.
func (f *frame) biMapfile(args []string) int {
	name0 := args[0]
	delim := byte('\n')
	trim := false
	fd := 0
	count, origin, skip, quantum := int64(0), int64(-1), int64(0), int64(5000)
	callback := ""
	args = args[1:]
	num := func(val, what string) (int64, bool) {
		n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil || n < 0 || what == "invalid callback quantum" && n == 0 {
			f.errorf("%s: %s: %s", name0, val, what)
			return 0, false
		}
		return n, true
	}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		opt := args[0]
		if opt == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
		for j := 1; j < len(opt); j++ {
			c := opt[j]
			if strings.IndexByte("t", c) >= 0 {
				trim = true
				continue
			}
			if strings.IndexByte("dnOsuCc", c) < 0 {
				f.errorf("%s: -%c: invalid option", name0, c)
				f.fds.writeString(2, mapfileUsage)
				return 2
			}
			val := opt[j+1:]
			if val == "" {
				if len(args) == 0 {
					f.errorf("%s: -%c: option requires an argument", name0, c)
					f.fds.writeString(2, mapfileUsage)
					return 2
				}
				val, args = args[0], args[1:]
			}
			j = len(opt)
			var ok bool
			switch c {
			case 'd':
				delim, ok = 0, true
				if val != "" {
					delim = val[0]
				}
			case 'n':
				count, ok = num(val, "invalid line count")
			case 'O':
				origin, ok = num(val, "invalid array origin")
			case 's':
				skip, ok = num(val, "invalid line count")
			case 'c':
				quantum, ok = num(val, "invalid callback quantum")
			case 'C':
				callback, ok = val, true
			case 'u':
				n, err := strconv.Atoi(val)
				ok = err == nil && n >= 0
				if !ok {
					f.errorf("%s: %s: invalid file descriptor specification", name0, val)
				}
				fd = n
			}
			if !ok {
				return 1
			}
		}
	}
	name := "MAPFILE"
	if len(args) > 0 {
		name = args[0]
	}
	if !syntax.ValidName(name) {
		f.errorf("%s: `%s': not a valid identifier", name0, name)
		return 1
	}
	s := f.fds.get(fd)
	if s == nil || s.r == nil {
		f.errorf("%s: %d: invalid file descriptor: Bad file descriptor", name0, fd)
		return 1
	}
	br := s.buffered()
	v := f.writable(f.scopeFor(name), name)
	if v == nil {
		return 1
	}
	if origin < 0 || v.idx == nil {
		v.idx = &sparse{}
	}
	if origin < 0 {
		origin = 0
	}
	v.attrs |= attrIndexed
	v.str = ""
	v.set = true
	i := origin
	for n := int64(0); count == 0 || n < count+skip; {
		line, err := readDelim(br, delim)
		if err != nil && line == "" {
			break
		}
		n++
		if n <= skip {
			continue
		}
		if trim {
			line = strings.TrimSuffix(line, string(delim))
		}
		if !f.charge(int64(len(line))) {
			return 1
		}
		if callback != "" && (n-skip)%quantum == 0 {
			f.biEval([]string{"eval", callback + " " + itoa64(i) + " " + singleQuote(line)})
			if f.ctl != ctlNone {
				return f.status
			}
		}
		v.idx.set(i, line)
		i++
	}
	return 0
}

// mayBlock reports whether reading r can wait for input: text and files
// of the sandbox always have data or an end at once.
func mayBlock(r io.Reader) bool {
	switch r.(type) {
	case *strings.Reader, *bytes.Reader, vfs.File:
		return false
	}
	return true
}
