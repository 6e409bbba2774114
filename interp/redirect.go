package interp

import (
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
)

// withRedirs runs fn with the redirections applied. persistent (exec
// without a command) changes the frame's table for good; otherwise the
// table is restored afterwards.
func (f *frame) withRedirs(rs []*syntax.Redirect, persistent bool, fn func()) {
	if persistent {
		if !f.redirect(rs) {
			f.status = 1
			return
		}
		fn()
		return
	}
	saved := f.fds
	f.fds = saved.fork()
	if f.redirect(rs) {
		fn()
	} else {
		f.status = 1
	}
	f.fds.release()
	f.fds = saved
}

// redirect applies redirections to the frame's table, left to right.
func (f *frame) redirect(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if !f.redirect1(r) {
			return false
		}
	}
	return true
}

func (f *frame) redirect1(r *syntax.Redirect) bool {
	fd := -1
	varName := ""
	if r.N != nil {
		if strings.HasPrefix(r.N.Value, "{") {
			varName = strings.Trim(r.N.Value, "{}")
		} else {
			n, err := strconv.Atoi(r.N.Value)
			if err != nil {
				f.errorf("%s: bad file descriptor", r.N.Value)
				return false
			}
			fd = n
		}
	}
	defFD := func(d int) {
		if fd < 0 && varName == "" {
			fd = d
		}
	}
	place := func(s *stream) bool {
		if varName != "" {
			if r.Op == syntax.DplOut && s == nil || r.Op == syntax.DplIn && s == nil {
				// {var}>&- closes the descriptor the variable names
				v, _ := f.getVar(varName)
				n, err := strconv.Atoi(v)
				if err == nil {
					f.fds.set(n, nil)
				}
				return true
			}
			fd = f.fds.free()
			if !f.assignScalar(varName, itoa(fd)) {
				return false
			}
		}
		f.fds.set(fd, s)
		return true
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		defFD(0)
		body, ok := f.hereDoc(r)
		if !ok {
			return false
		}
		return place(newStream(strings.NewReader(body), nil, nil))
	case syntax.WordHdoc:
		defFD(0)
		s, ok := f.literal(r.Word)
		if !ok {
			return false
		}
		return place(newStream(strings.NewReader(s+"\n"), nil, nil))
	}
	target, ok := f.redirTarget(r)
	if !ok {
		return false
	}
	switch r.Op {
	case syntax.DplIn, syntax.DplOut:
		if r.Op == syntax.DplIn {
			defFD(0)
		} else {
			defFD(1)
		}
		if target == "-" {
			return place(nil)
		}
		move := strings.HasSuffix(target, "-")
		src, err := strconv.Atoi(strings.TrimSuffix(target, "-"))
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange || err == nil && src > 1<<31-1 {
			f.errorf("%d: Bad file descriptor", fd)
			return false
		}
		if err != nil {
			if r.Op == syntax.DplOut && fd == 1 && r.N == nil {
				// >&word is &>word for a file name
				return f.openRedirect(target, 1, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, true, place)
			}
			f.errorf("%s: ambiguous redirect", target)
			return false
		}
		s := f.fds.get(src)
		if s == nil {
			f.errorf("%s: Bad file descriptor", f.wordText(r.Word))
			return false
		}
		if !place(s) {
			return false
		}
		if move {
			f.fds.set(src, nil)
		}
		return true
	case syntax.RdrIn:
		defFD(0)
		return f.openRedirect(target, fd, os.O_RDONLY, false, place)
	case syntax.RdrInOut:
		defFD(0)
		return f.openRedirect(target, fd, os.O_RDWR|os.O_CREATE, false, place)
	case syntax.RdrOut, syntax.ClbOut:
		defFD(1)
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if r.Op == syntax.RdrOut && f.opts.has(optNoclobber) {
			flag |= os.O_EXCL
		}
		return f.openRedirect(target, fd, flag, false, place)
	case syntax.AppOut:
		defFD(1)
		return f.openRedirect(target, fd, os.O_WRONLY|os.O_CREATE|os.O_APPEND, false, place)
	case syntax.RdrAll, syntax.AppAll:
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if f.opts.has(optNoclobber) {
			flag |= os.O_EXCL
		}
		if r.Op == syntax.AppAll {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		return f.openRedirect(target, 1, flag, true, place)
	}
	f.errorf("unsupported redirection %s", r.Op)
	return false
}

// redirTarget expands a redirection's word as bash does: split and
// globbed, it must come to exactly one word ("ambiguous redirect").
func (f *frame) redirTarget(r *syntax.Redirect) (string, bool) {
	if len(r.Word.Parts) == 1 {
		if l, ok := r.Word.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "*?[") {
			return f.literal(r.Word)
		}
	}
	if r.Op == syntax.DplIn || r.Op == syntax.DplOut {
		return f.literal(r.Word)
	}
	words, ok := f.fields([]*syntax.Word{r.Word})
	if !ok {
		return "", false
	}
	if len(words) != 1 {
		f.errorf("%s: ambiguous redirect", f.wordText(r.Word))
		return "", false
	}
	return words[0], true
}

// wordText is a word as written in the source.
func (f *frame) wordText(w *syntax.Word) string {
	if start, end := int(w.Pos().Offset()), int(w.End().Offset()); start < end && end <= len(f.src) {
		return f.src[start:end]
	}
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// openRedirect opens target for a redirection. both points 1 and 2 at it.
func (f *frame) openRedirect(target string, fd, flag int, both bool, place func(*stream) bool) bool {
	if target == "" {
		f.errorf(": No such file or directory")
		return false
	}
	s, err := f.openStream(target, flag)
	if err != nil {
		f.errorf("%s: %s", target, err.Error())
		return false
	}
	if both {
		f.fds.set(1, s)
		f.fds.set(2, s)
		return true
	}
	return place(s)
}

// openStream opens a path of the sandbox (or one of the shell's /dev
// files) as a stream.
func (f *frame) openStream(target string, flag int) (*stream, error) {
	switch target {
	case "/dev/stdin":
		target = "/dev/fd/0"
	case "/dev/stdout":
		target = "/dev/fd/1"
	case "/dev/stderr":
		target = "/dev/fd/2"
	}
	if n, ok := strings.CutPrefix(target, "/dev/fd/"); ok {
		fd, err := strconv.Atoi(n)
		if err == nil {
			if s := f.fds.get(fd); s != nil {
				return s, nil
			}
			return nil, errText("No such file or directory")
		}
	}
	p := target
	if !path.IsAbs(p) {
		p = path.Join(f.dir, p)
	}
	excl := flag&os.O_EXCL != 0
	if excl {
		flag &^= os.O_EXCL
		if fi, err := f.call.sh.FS.Stat(p); err == nil && fi.Mode().IsRegular() {
			return nil, errText("cannot overwrite existing file")
		}
	}
	file, err := f.call.sh.FS.OpenFileContext(f.ctx, p, flag, 0o666&^fs.FileMode(f.umask))
	if err != nil {
		return nil, errText(builtins.ErrText(err))
	}
	if fi, err := file.Stat(); err == nil && fi.IsDir() {
		file.Close()
		return nil, errText("Is a directory")
	}
	var r io.Reader
	var w io.Writer
	if flag&(os.O_WRONLY) == 0 {
		r = file
	}
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		w = file
	}
	s := newStream(r, w, file)
	s.file = file
	return s, nil
}

type errText string

func (e errText) Error() string { return string(e) }

// hereDoc expands a here-document's body (literal when the delimiter is
// quoted) and strips leading tabs for <<-.
func (f *frame) hereDoc(r *syntax.Redirect) (string, bool) {
	if r.Hdoc == nil {
		return "", true
	}
	quotedDelim := false
	for _, p := range r.Word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quotedDelim = true
		case *syntax.Lit:
			if strings.ContainsRune(p.Value, '\\') {
				quotedDelim = true
			}
		}
	}
	var body string
	if quotedDelim {
		var b strings.Builder
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(l.Value)
			} else {
				b.WriteString(wordText(&syntax.Word{Parts: []syntax.WordPart{p}}))
			}
		}
		body = b.String()
	} else {
		e := expander{f: f, mode: modeLiteral}
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				e.hdocLit(l.Value)
				continue
			}
			e.part(p, true)
			if e.err {
				return "", false
			}
		}
		body = e.joined()
	}
	if r.Op == syntax.DashHdoc {
		lines := strings.SplitAfter(body, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimLeft(l, "\t")
		}
		body = strings.Join(lines, "")
	}
	if !f.charge(int64(len(body))) {
		return "", false
	}
	f.call.sh.Budget.charge(-int64(len(body)))
	return body, true
}

// hdocLit adds here-document text: a backslash escapes only $, `, \ and
// a newline.
func (e *expander) hdocLit(s string) {
	if strings.IndexByte(s, '\\') < 0 {
		e.add(s, true)
		return
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\\\n", s[i+1]) >= 0 {
			if s[i+1] != '\n' {
				b.WriteByte(s[i+1])
			}
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	e.add(b.String(), true)
}
