package interp

import (
	"context"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/vfs"
	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/interp/pattern"
	"github.com/bashbox/bashbox/volumes"
)

// tilde expands ~ and ~user from the sandbox's own user table: its one
// user, and root. ~+ and ~- are $PWD and $OLDPWD.
func (f *frame) tilde(name string) (string, bool) {
	switch name {
	case "":
		if h, ok := f.getVar("HOME"); ok {
			return h, true
		}
		return "/home/user", true
	case "+":
		return f.dir, true
	case "-":
		if f.oldDir == "" {
			return "", false
		}
		return f.oldDir, true
	}
	if d, ok := f.dirStackEntry(name); ok {
		return d, true
	}
	user, _ := f.getVar("USER")
	if user == "" {
		user = "user"
	}
	if name == user {
		return "/home/user", true
	}
	if name == "root" {
		return "/root", true
	}
	return "", false
}

// hasBraceLit says whether an unquoted part of w has a '{': only then
// can brace expansion apply.
func hasBraceLit(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			return true
		}
	}
	return false
}

// dirStackEntry is ~N, ~+N and ~-N: entry N of the directory stack as
// dirs lists it, from the left or (~-N) from the right.
func (f *frame) dirStackEntry(name string) (string, bool) {
	fromRight := false
	switch {
	case strings.HasPrefix(name, "+"):
		name = name[1:]
	case strings.HasPrefix(name, "-"):
		name, fromRight = name[1:], true
	}
	if name == "" || strings.Trim(name, "0123456789") != "" || len(name) > 9 {
		return "", false
	}
	n, _ := strconv.Atoi(name)
	stack := append([]string{f.dir}, f.dirStack...)
	if fromRight {
		n = len(stack) - 1 - n
	}
	if n < 0 || n >= len(stack) {
		return "", false
	}
	return stack[n], true
}

// braces applies brace expansion to a word; results are cached per word,
// as brace expansion depends on the source text only.
func (f *frame) braces(w *syntax.Word) []*syntax.Word {
	if !f.opts.has(optBraceexpand) {
		return []*syntax.Word{w}
	}
	if !hasBraceLit(w) {
		return []*syntax.Word{w}
	}
	sh := f.call.sh
	sh.braceMu.Lock()
	if ws, ok := sh.braceCache[w]; ok {
		sh.braceMu.Unlock()
		return ws
	}
	sh.braceMu.Unlock()
	cp := &syntax.Word{Parts: make([]syntax.WordPart, len(w.Parts))}
	for i, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			l2 := *l
			p = &l2
		}
		cp.Parts[i] = p
	}
	var out []*syntax.Word
	if syntax.SplitBraces(cp) {
		// A product of braces can make millions of words: the expansion
		// stops with the call, and on the memory budget (a word costs
		// its parts, some 64 bytes at least).
		room := func(n int) bool {
			f.call.sh.Budget.pace()
			return !f.stopped() && f.call.sh.Budget.fits(int64(n)*64)
		}
		out = expandBraces(cp, 0, room)
		if f.stopped() {
			return nil
		}
	} else {
		out = []*syntax.Word{w}
	}
	sh.braceMu.Lock()
	if sh.braceCache == nil {
		sh.braceCache = map[*syntax.Word][]*syntax.Word{}
	}
	if len(sh.braceCache) < 4096 {
		sh.braceCache[w] = out
	}
	sh.braceMu.Unlock()
	return out
}

// literalBraces expands the braces of a word made of literals only
// ({1..100000}, a{b,c}d) straight to strings, without building words:
// loops over long sequences are common. ok is false when the word needs
// the general path.
func (f *frame) literalBraces(w *syntax.Word) ([]string, bool) {
	if len(w.Parts) != 1 || !f.opts.has(optBraceexpand) {
		return nil, false
	}
	l, isLit := w.Parts[0].(*syntax.Lit)
	if !isLit || strings.IndexByte(l.Value, '{') < 0 || strings.ContainsAny(l.Value, "\\*?[~$`'\"") {
		return nil, false
	}
	cp := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: l.Value}}}
	if !syntax.SplitBraces(cp) {
		return nil, false
	}
	out, ok := braceStrings(cp.Parts, []string{""})
	if !ok {
		return nil, false
	}
	var size int64
	for _, s := range out {
		size += int64(len(s)) + 16
	}
	if !f.call.sh.Budget.fits(size) {
		f.stopped()
		return nil, false
	}
	// an alternative that leaves the word empty ({,a}) makes no field
	return slices.DeleteFunc(out, func(s string) bool { return s == "" }), true
}

// braceStrings expands literal parts and braces into strings, each
// prefix combined with every alternative.
func braceStrings(parts []syntax.WordPart, prefixes []string) ([]string, bool) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			for i := range prefixes {
				prefixes[i] += p.Value
			}
		case *syntax.BraceExp:
			var alts []string
			if p.Sequence {
				ws := braceSeq(p)
				if ws == nil {
					for i := range prefixes {
						prefixes[i] += braceText(p)
					}
					continue
				}
				for _, w := range ws {
					if len(w.Parts) != 1 {
						return nil, false
					}
					l, ok := w.Parts[0].(*syntax.Lit)
					if !ok {
						return nil, false
					}
					alts = append(alts, l.Value)
				}
			} else {
				for _, e := range p.Elems {
					sub, ok := braceStrings(e.Parts, []string{""})
					if !ok {
						return nil, false
					}
					alts = append(alts, sub...)
				}
			}
			if len(prefixes)*len(alts) > maxBraceWords {
				return nil, false
			}
			next := make([]string, 0, len(prefixes)*len(alts))
			for _, pre := range prefixes {
				for _, a := range alts {
					next = append(next, pre+a)
				}
			}
			prefixes = next
		default:
			return nil, false
		}
	}
	return prefixes, true
}

// maxBraceWords bounds one word's brace expansion.
const maxBraceWords = 1 << 20

// expandBraces expands the first BraceExp of w, recursively.
// room is asked every 4Ki words whether n more words may be made.
func expandBraces(w *syntax.Word, depth int, room func(n int) bool) []*syntax.Word {
	for i, p := range w.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		var alts []*syntax.Word
		if b.Sequence {
			alts = braceSeq(b)
			if alts == nil {
				p = &syntax.Lit{Value: braceText(b)}
				w2 := &syntax.Word{Parts: append(append(append([]syntax.WordPart(nil), w.Parts[:i]...), p), w.Parts[i+1:]...)}
				return expandBraces(w2, depth+1, room)
			}
		} else {
			alts = b.Elems
		}
		var out []*syntax.Word
		for _, a := range alts {
			parts := append(append([]syntax.WordPart(nil), w.Parts[:i]...), a.Parts...)
			parts = append(parts, w.Parts[i+1:]...)
			n := len(out)
			out = append(out, expandBraces(&syntax.Word{Parts: parts}, depth+1, room)...)
			if n>>12 != len(out)>>12 && !room(len(out)) {
				return out
			}
			if len(out) > maxBraceWords {
				return out[:maxBraceWords]
			}
		}
		return out
	}
	return []*syntax.Word{w}
}

// braceSeq expands {a..b[..step]} over integers or characters.
func braceSeq(b *syntax.BraceExp) []*syntax.Word {
	texts := make([]string, len(b.Elems))
	for i, e := range b.Elems {
		texts[i] = wordText(e)
	}
	step := int64(1)
	if len(texts) == 3 {
		s, err := strconv.ParseInt(texts[2], 10, 64)
		if err != nil {
			return nil
		}
		if s < 0 {
			s = -s
		}
		if s == 0 {
			s = 1
		}
		step = s
	}
	lit := func(s string) *syntax.Word { return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}} }
	x, err1 := strconv.ParseInt(texts[0], 10, 64)
	y, err2 := strconv.ParseInt(texts[1], 10, 64)
	var out []*syntax.Word
	if err1 == nil && err2 == nil {
		width := 0
		if len(texts[0]) > 1 && (texts[0][0] == '0' || strings.HasPrefix(texts[0], "-0")) || len(texts[1]) > 1 && (texts[1][0] == '0' || strings.HasPrefix(texts[1], "-0")) {
			width = max(len(texts[0]), len(texts[1]))
		}
		for i := x; ; {
			s := strconv.FormatInt(i, 10)
			if width > 0 {
				neg := strings.HasPrefix(s, "-")
				s = strings.TrimPrefix(s, "-")
				w := width
				if neg {
					w--
				}
				for len(s) < w {
					s = "0" + s
				}
				if neg {
					s = "-" + s
				}
			}
			out = append(out, lit(s))
			if len(out) > maxBraceWords {
				return out
			}
			if x <= y {
				i += step
				if i > y {
					break
				}
			} else {
				i -= step
				if i < y {
					break
				}
			}
		}
		return out
	}
	if len(texts[0]) == 1 && len(texts[1]) == 1 {
		a, c := int64(texts[0][0]), int64(texts[1][0])
		for i := a; ; {
			if i == '\\' {
				// bash's expansion yields a lone backslash, which quote
				// removal turns into an empty word
				out = append(out, &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{}}})
			} else {
				out = append(out, lit(string(rune(i))))
			}
			if a <= c {
				i += step
				if i > c {
					break
				}
			} else {
				i -= step
				if i < c {
					break
				}
			}
		}
		return out
	}
	return nil
}

// glob expands a pathname pattern in the sandbox; nil means no match.
// failed is set (with bash's message) under failglob.
func (f *frame) glob(pat string) (matches []string, failed bool) {
	opt := pattern.GlobOptions{
		DotGlob:  f.opts.has(optDotglob),
		GlobStar: f.opts.has(optGlobstar),
	}
	if f.opts.has(optExtglob) {
		opt.Flags |= pattern.ExtGlob
	}
	if f.opts.has(optNocaseglob) {
		opt.Flags |= pattern.NoCase
	}
	if ig, ok := f.getVar("GLOBIGNORE"); ok && ig != "" {
		opt.Ignore = strings.Split(ig, ":")
	}
	matches, err := pattern.Glob(f.ctx, globFS{f}, pat, opt)
	if err != nil {
		f.stopped()
		return nil, true
	}
	if len(matches) == 0 {
		if f.opts.has(optFailglob) {
			f.errorf("no match: %s", unescapePattern(pat))
			f.status = 1
			f.abort()
			return nil, true
		}
		return nil, false
	}
	return matches, false
}

// globFS is the namespace as globbing sees it, relative to the frame's
// directory.
type globFS struct{ f *frame }

func (g globFS) ReadDir(name string) ([]fs.DirEntry, error) {
	infos, err := g.f.call.sh.FS.ReadDir(g.f.absPath(name))
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		out[i] = fs.FileInfoToDirEntry(fi)
	}
	return out, nil
}

func (g globFS) Stat(name string) (fs.FileInfo, error) { return g.f.call.sh.FS.Stat(g.f.absPath(name)) }

func (g globFS) Lstat(name string) (fs.FileInfo, error) {
	fi, _, err := g.f.call.sh.FS.LstatIfPossible(g.f.absPath(name))
	return fi, err
}

func (f *frame) isDir(p string, fi fs.FileInfo) bool {
	if fi.IsDir() {
		return true
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		st, err := f.call.sh.FS.Stat(f.absPath(p))
		return err == nil && st.IsDir()
	}
	return false
}

func (f *frame) absPath(p string) string {
	if path.IsAbs(p) {
		return p
	}
	return path.Join(f.dir, p)
}

// fdFS is the filesystem commands see: the namespace, plus /dev/fd/N,
// /dev/stdin, /dev/stdout and /dev/stderr from the shell's descriptors.
// Its opens wait for a FIFO's other end no longer than the command's ctx.
type fdFS struct {
	*volumes.Namespace
	fds *fdTab
	ctx context.Context
}

func (c fdFS) fdFile(name string) (vfs.File, bool) {
	switch name {
	case "/dev/stdin":
		name = "/dev/fd/0"
	case "/dev/stdout":
		name = "/dev/fd/1"
	case "/dev/stderr":
		name = "/dev/fd/2"
	}
	n, ok := strings.CutPrefix(name, "/dev/fd/")
	if !ok {
		return nil, false
	}
	fd, err := strconv.Atoi(n)
	if err != nil {
		return nil, false
	}
	s := c.fds.get(fd)
	if s == nil {
		return nil, false
	}
	if file, ok := s.file.(vfs.File); ok && fd > 2 {
		return builtins.StreamFile(name, file, file), true
	}
	return builtins.StreamFile(name, s.r, s.w), true
}

func (c fdFS) Open(name string) (vfs.File, error) {
	if f, ok := c.fdFile(name); ok {
		return f, nil
	}
	return c.Namespace.OpenFileContext(c.ctx, name, os.O_RDONLY, 0)
}

func (c fdFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if f, ok := c.fdFile(name); ok {
		return f, nil
	}
	return c.Namespace.OpenFileContext(c.ctx, name, flag, perm)
}

func (c fdFS) Stat(name string) (fs.FileInfo, error) {
	if f, ok := c.fdFile(name); ok {
		return f.Stat()
	}
	return c.Namespace.Stat(name)
}
