package interp

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/coreutils/timefmt"
)

func (f *frame) biEcho(args []string) int {
	args = args[1:]
	newline, escapes := true, f.opts.has(optXpgEcho)
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if escapes {
			s, _, stop := unescapeMode(a, true, true)
			b.WriteString(s)
			if stop {
				newline = false
				break
			}
		} else {
			b.WriteString(a)
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	if err := f.fds.writeString(1, b.String()); err != nil {
		if err == errBadFD {
			f.errorf("echo: write error: Bad file descriptor")
		}
		return 1
	}
	return 0
}

const printfUsage = "printf: usage: printf [-v var] format [arguments]\n"

func (f *frame) biPrintf(args []string) int {
	args = args[1:]
	varName := ""
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if a[1] != 'v' {
			f.errorf("printf: -%c: invalid option", a[1])
			f.fds.writeString(2, printfUsage)
			return 2
		}
		if len(a) > 2 {
			varName, args = a[2:], args[1:]
			continue
		}
		if len(args) < 2 {
			f.errorf("printf: -v: option requires an argument")
			f.fds.writeString(2, printfUsage)
			return 2
		}
		varName, args = args[1], args[2:]
	}
	if len(args) == 0 {
		f.fds.writeString(2, printfUsage)
		return 2
	}
	if varName != "" && !validVarRef(varName) {
		f.errorf("printf: `%s': not a valid identifier", varName)
		return 2
	}
	errw := &prefixWriter{prefix: f.errPrefix(), w: f.fds.writer(2)}
	env := printfEnv{now: nowUnix(), start: f.startSecs, loc: f.timeZone(), setVar: f.softAssign}
	if varName != "" {
		var out strings.Builder
		st := bashPrintf(&out, errw, env, args[0], args[1:])
		if !f.softAssign(varName, out.String()) {
			return 1
		}
		return st
	}
	return bashPrintf(f.fds.writer(1), errw, env, args[0], args[1:])
}

// validVarRef reports whether s names a variable or an array element
// (read, printf -v, mapfile, getopts take either).
func validVarRef(s string) bool {
	base, sub, hasSub := strings.Cut(s, "[")
	return syntax.ValidName(base) && (!hasSub || strings.HasSuffix(sub, "]") && len(sub) > 1)
}

// softAssign sets a variable or array element the way builtins do
// (read, printf -v, getopts): a readonly target prints bash's message and
// fails the builtin without abandoning the command line.
func (f *frame) softAssign(name, val string) bool {
	before := f.ctl
	var ok bool
	if base, sub, hasSub := strings.Cut(name, "["); hasSub {
		ok = f.assignIndex(base, wordOf(strings.TrimSuffix(sub, "]")), val, false)
	} else {
		ok = f.assignScalar(name, val)
	}
	if !ok && before == ctlNone && f.ctl == ctlAbort {
		f.ctl = ctlNone
	}
	return ok
}

// timeZone is the zone TZ names (UTC when unset), for %(fmt)T.
func (f *frame) timeZone() *time.Location {
	return timefmt.Location(f.getVar)
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

func (f *frame) biRead(args []string) int {
	o, ok := parseRead(args)
	if !ok {
		f.errorf("read: invalid option or argument")
		f.fds.writeString(2, "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n")
		return 2
	}
	fd := 0
	if o.fd >= 0 {
		fd = o.fd
	}
	s := f.fds.get(fd)
	if s == nil || s.r == nil {
		f.errorf("read: %d: invalid file descriptor: Bad file descriptor", fd)
		return 1
	}
	if o.prompt != "" {
		f.fds.writeString(2, o.prompt)
	}
	br := s.buffered()
	var b strings.Builder
	gotDelim := false
	count := 0
	for {
		if o.nchars >= 0 && count >= o.nchars {
			break
		}
		r, size, err := br.ReadRune()
		if err != nil {
			break
		}
		if r == utf8.RuneError && size == 1 {
			br.UnreadRune()
			c, _ := br.ReadByte()
			b.WriteByte(c)
			count++
			continue
		}
		if !o.exact && byte(r) == o.delim && r < utf8.RuneSelf {
			gotDelim = true
			break
		}
		if !o.raw && r == '\\' {
			next, _, err := br.ReadRune()
			if err != nil {
				break
			}
			if next == '\n' {
				continue
			}
			b.WriteByte('\x00') // marks the next character as escaped
			b.WriteRune(next)
			count++
			continue
		}
		b.WriteRune(r)
		count++
		if count&0xffff == 0 && !f.call.sh.Budget.fits(int64(b.Len())) {
			f.stopped()
			return 1
		}
	}
	line := b.String()
	status := 0
	if !gotDelim && (o.nchars < 0 || count < o.nchars) {
		status = 1
		if line == "" {
			// nothing read: the variables are still emptied
		}
	}
	ifs := f.ifs()
	if o.array != "" {
		var fields []string
		if line != "" || !strings.Contains(line, "\x00") {
			fields = splitEscaped(line, ifs, 0)
		}
		f.unsetVar(o.array)
		v := f.writable(f.scopeFor(o.array), o.array)
		if v == nil {
			return 1
		}
		v.attrs |= attrIndexed
		v.idx = &sparse{}
		for i, s := range fields {
			v.idx.set(int64(i), s)
		}
		v.set = true
		return status
	}
	names := o.names
	if len(names) == 0 {
		if !f.assignScalar("REPLY", strings.ReplaceAll(line, "\x00", "")) {
			return 1
		}
		return status
	}
	fields := splitEscaped(line, ifs, len(names))
	for i, n := range names {
		val := ""
		if i < len(fields) {
			val = fields[i]
		}
		if !f.assignScalar(n, val) {
			return 1
		}
	}
	return status
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

func (f *frame) biMapfile(args []string) int {
	delim := byte('\n')
	trim := false
	fd := 0
	count, origin, skip := -1, int64(0), 0
	name := "MAPFILE"
	args = args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		opt := args[0]
		val := ""
		needs := strings.ContainsAny(opt[1:2], "dnOsuCc")
		if needs {
			if len(opt) > 2 {
				val = opt[2:]
			} else if len(args) > 1 {
				val = args[1]
				args = args[1:]
			} else {
				f.errorf("%s: option requires an argument", opt)
				return 2
			}
		}
		switch opt[1] {
		case 't':
			trim = true
		case 'd':
			delim = 0
			if val != "" {
				delim = val[0]
			}
		case 'n':
			count, _ = strconv.Atoi(val)
			if count == 0 {
				count = -1
			}
		case 'O':
			o, _ := strconv.Atoi(val)
			origin = int64(o)
		case 's':
			skip, _ = strconv.Atoi(val)
		case 'u':
			fd, _ = strconv.Atoi(val)
		case 'C', 'c':
		default:
			f.errorf("mapfile: %s: invalid option", opt)
			return 2
		}
		args = args[1:]
	}
	if len(args) > 0 {
		name = args[0]
	}
	s := f.fds.get(fd)
	if s == nil || s.r == nil {
		f.errorf("mapfile: %d: invalid file descriptor: Bad file descriptor", fd)
		return 1
	}
	br := s.buffered()
	v := f.writable(f.scopeFor(name), name)
	if v == nil {
		return 1
	}
	if origin == 0 || v.idx == nil {
		v.idx = &sparse{}
	}
	v.attrs |= attrIndexed
	v.str = ""
	v.set = true
	i := origin
	n := 0
	for count < 0 || n < count+skip {
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
		v.idx.set(i, line)
		i++
	}
	return 0
}

func readDelim(br *bufio.Reader, delim byte) (string, error) {
	s, err := br.ReadString(delim)
	if err == io.EOF && s != "" {
		return s, nil
	}
	return s, err
}
