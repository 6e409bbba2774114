package interp

import (
	"context"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bashbox/bashbox/overlayfs"
	"mvdan.cc/sh/v3/syntax"
)

// testClause runs [[ ... ]].
func (f *frame) testClause(c *syntax.TestClause) {
	f.arithErr = false
	ok, good := f.testExpr(c.X)
	if !good {
		if f.arithErr {
			f.status = 1 // bash's status for an arithmetic error in [[ ]]
			return
		}
		if f.status == 0 || f.status == 1 {
			f.status = 2
		}
		return
	}
	f.status = boolStatus(ok)
}

func (f *frame) testExpr(x syntax.TestExpr) (bool, bool) {
	switch x := x.(type) {
	case *syntax.Word:
		s, ok := f.literal(x)
		return s != "", ok
	case *syntax.ParenTest:
		return f.testExpr(x.X)
	case *syntax.UnaryTest:
		if in, ok := x.X.(*syntax.BinaryTest); ok && x.Op == syntax.TsNot && (in.Op == syntax.AndTest || in.Op == syntax.OrTest) {
			// The parser reads "! a || b" as "!(a || b)"; bash binds !
			// to its operand alone.
			return f.testExpr(&syntax.BinaryTest{Op: in.Op, X: &syntax.UnaryTest{Op: syntax.TsNot, X: in.X}, Y: in.Y})
		}
		if x.Op == syntax.TsNot {
			old := f.traceNot
			f.traceNot = !old
			v, ok := f.testExpr(x.X)
			f.traceNot = old
			return !v, ok
		}
		w, _ := x.X.(*syntax.Word)
		s, ok := f.literal(w)
		if !ok {
			return false, false
		}
		if f.opts.has(optXtrace) {
			f.traceTest(x.Op.String(), s)
		}
		return f.unaryTest(x.Op, s)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest:
			l, ok := f.testExpr(x.X)
			if !ok || !l {
				return false, ok
			}
			return f.testExpr(x.Y)
		case syntax.OrTest:
			l, ok := f.testExpr(x.X)
			if !ok || l {
				return l, ok
			}
			return f.testExpr(x.Y)
		}
		lw, _ := x.X.(*syntax.Word)
		rw, _ := x.Y.(*syntax.Word)
		l, ok := f.literal(lw)
		if !ok {
			return false, false
		}
		switch x.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
			var pat string
			if f.opts.has(optXtrace) {
				var shown string
				pat, shown, ok = f.patternTrace(rw)
				if ok {
					f.traceTest(l, x.Op.String(), shown)
				}
			} else {
				pat, ok = f.patternOf(rw)
			}
			if !ok {
				return false, false
			}
			m := f.condMatch(pat, l)
			return m == (x.Op != syntax.TsNoMatch), true
		case syntax.TsReMatch:
			return f.regexMatch(l, rw)
		}
		r, ok := f.literal(rw)
		if !ok {
			return false, false
		}
		if f.opts.has(optXtrace) {
			f.traceTest(l, x.Op.String(), r)
		}
		return f.binaryTest(x.Op, l, r)
	}
	return false, false
}

var regexCache sync.Map // string -> *regexp.Regexp

// regexMatch runs [[ s =~ re ]]: quoted parts of re are literal; the
// groups go to BASH_REMATCH.
func (f *frame) regexMatch(s string, w *syntax.Word) (bool, bool) {
	e := expander{f: f, mode: modeLiteral}
	var b strings.Builder
	for _, p := range w.Parts {
		e.cur = e.cur[:0]
		e.part(p, false)
		if e.err {
			return false, false
		}
		for _, sg := range e.cur {
			if sg.quoted {
				b.WriteString(regexp.QuoteMeta(sg.s))
			} else {
				b.WriteString(sg.s)
			}
		}
	}
	src := b.String()
	var re *regexp.Regexp
	// POSIX's . matches a newline; ^ and $ anchor the whole string.
	key := "(?s)" + src
	if f.opts.has(optNocasematch) {
		key = "(?is)" + src
	}
	if v, ok := regexCache.Load(key); ok {
		re = v.(*regexp.Regexp)
	} else {
		var err error
		re, err = regexp.Compile(translateERE(key))
		if err != nil {
			return false, false
		}
		regexCache.Store(key, re)
	}
	m := f.reMatch(re, s)
	if f.stopped() {
		return false, true
	}
	f.unsetVar("BASH_REMATCH")
	if m == nil {
		return false, true
	}
	v := f.writable(f.global, "BASH_REMATCH")
	if v != nil {
		v.attrs |= attrIndexed
		v.idx = &sparse{}
		for i, g := range m {
			v.idx.set(int64(i), g)
		}
		v.set = true
	}
	return true, true
}

// reMatch is re.FindStringSubmatch(s), stopped with the call: RE2 takes
// time linear in s but cannot be interrupted, so a long subject (up to
// the memory budget) is fed through a reader that ends when the call
// does; the match then finds nothing and the caller stops.
func (f *frame) reMatch(re *regexp.Regexp, s string) []string {
	if len(s) < 1<<16 {
		return re.FindStringSubmatch(s)
	}
	loc := re.FindReaderSubmatchIndex(&ctxRuneReader{ctx: f.ctx, s: s, pace: f.call.sh.Budget.pace})
	if loc == nil || f.ctx.Err() != nil {
		return nil
	}
	m := make([]string, len(loc)/2)
	for i := range m {
		if loc[2*i] >= 0 {
			m[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return m
}

// ctxRuneReader reads s rune by rune until ctx is done, with a
// checkpoint of the call every 4Ki runes.
type ctxRuneReader struct {
	ctx  context.Context
	s    string
	i, n int
	pace func()
}

func (r *ctxRuneReader) ReadRune() (rune, int, error) {
	if r.n++; r.n&4095 == 0 {
		r.pace()
		if r.ctx.Err() != nil {
			return 0, 0, io.EOF
		}
	}
	if r.i >= len(r.s) {
		return 0, 0, io.EOF
	}
	c, size := utf8.DecodeRuneInString(r.s[r.i:])
	r.i += size
	return c, size, nil
}

// translateERE adapts POSIX ERE details Go's syntax lacks: bracket
// expressions starting with ] and character classes are the same.
func translateERE(s string) string { return s }

func (f *frame) unaryTest(op syntax.UnTestOperator, s string) (bool, bool) {
	switch op {
	case syntax.TsEmpStr:
		return s == "", true
	case syntax.TsNempStr:
		return s != "", true
	case syntax.TsVarSet:
		return f.varIsSet(s), true
	case syntax.TsRefVar:
		v := f.lookupRaw(s)
		return v != nil && v.attrs&attrNameref != 0, true
	case syntax.TsOptSet:
		bit, ok := setOptionByName(s)
		return ok && bit != 0 && f.opts.has(bit), true
	case syntax.TsFdTerm:
		return false, true
	}
	p := f.absPath(s)
	if s == "" {
		return false, true
	}
	var fi fs.FileInfo
	var err error
	if op == syntax.TsSmbLink {
		fi, _, err = f.call.sh.FS.LstatIfPossible(p)
	} else {
		fi, err = f.call.sh.FS.Stat(p)
	}
	if err != nil {
		return false, true
	}
	m := fi.Mode()
	switch op {
	case syntax.TsExists:
		return true, true
	case syntax.TsRegFile:
		return m.IsRegular(), true
	case syntax.TsDirect:
		return m.IsDir(), true
	case syntax.TsCharSp:
		return m&fs.ModeCharDevice != 0, true
	case syntax.TsBlckSp:
		return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0, true
	case syntax.TsNmPipe:
		return m&fs.ModeNamedPipe != 0, true
	case syntax.TsSocket:
		return m&fs.ModeSocket != 0, true
	case syntax.TsSmbLink:
		return m&fs.ModeSymlink != 0, true
	case syntax.TsSticky:
		return m&fs.ModeSticky != 0, true
	case syntax.TsGIDSet:
		return m&fs.ModeSetgid != 0, true
	case syntax.TsUIDSet:
		return m&fs.ModeSetuid != 0, true
	case syntax.TsGrpOwn, syntax.TsUsrOwn:
		return true, true // the script's user owns what it sees
	case syntax.TsModif:
		return true, true
	case syntax.TsRead:
		return m.Perm()&0o444 != 0, true
	case syntax.TsWrite:
		return m.Perm()&0o222 != 0, true
	case syntax.TsExec:
		return m.Perm()&0o111 != 0, true
	case syntax.TsNoEmpty:
		return fi.Size() > 0, true
	}
	return false, true
}

// varIsSet implements -v NAME and -v NAME[i].
func (f *frame) varIsSet(s string) bool {
	name, sub, hasSub := strings.Cut(s, "[")
	if !syntax.ValidName(name) {
		if _, ok, special := f.special(s); special {
			return ok
		}
		return false
	}
	if !hasSub {
		_, ok := f.getVar(name)
		if !ok {
			if v := f.lookupVar(name); v != nil && (v.idx != nil && v.idx.len() > 0) {
				_, ok = v.idx.get(0)
			}
		}
		return ok
	}
	sub = strings.TrimSuffix(sub, "]")
	v := f.lookupVar(name)
	if v == nil {
		return false
	}
	if sub == "@" || sub == "*" {
		return len(v.elems()) > 0
	}
	if v.assoc != nil {
		_, ok := v.assoc.get(sub)
		return ok
	}
	i, ok := f.arithString(sub)
	if !ok {
		return false
	}
	if v.idx == nil {
		return i == 0 && v.set
	}
	if i < 0 {
		i += v.idx.next()
	}
	_, ok = v.idx.get(i)
	return ok
}

func (f *frame) binaryTest(op syntax.BinTestOperator, l, r string) (bool, bool) {
	switch op {
	case syntax.TsBefore:
		return l < r, true
	case syntax.TsAfter:
		return l > r, true
	case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
		c0, fa := f.arithFor("[[", false)
		a, ok := f.arithString(l)
		var b int64
		if ok {
			b, ok = f.arithString(r)
		}
		f.arithRestore(c0, fa)
		if !ok {
			return false, f.ctl == ctlNone
		}
		switch op {
		case syntax.TsEql:
			return a == b, true
		case syntax.TsNeq:
			return a != b, true
		case syntax.TsLss:
			return a < b, true
		case syntax.TsLeq:
			return a <= b, true
		case syntax.TsGtr:
			return a > b, true
		}
		return a >= b, true
	case syntax.TsNewer, syntax.TsOlder, syntax.TsDevIno:
		fa, errA := f.call.sh.FS.Stat(f.absPath(l))
		fb, errB := f.call.sh.FS.Stat(f.absPath(r))
		switch op {
		case syntax.TsNewer:
			return errA == nil && (errB != nil || fa.ModTime().After(fb.ModTime())), true
		case syntax.TsOlder:
			return errB == nil && (errA != nil || fa.ModTime().Before(fb.ModTime())), true
		}
		return errA == nil && errB == nil && f.sameFile(fa, fb, l, r), true
	}
	return false, false
}

// sameFile reports whether two names are one file: by device and inode
// where the layer reports them (hard links), else by the paths they
// resolve to through symbolic links (a memory file with one name has no
// identity to compare).
func (f *frame) sameFile(fa, fb fs.FileInfo, a, b string) bool {
	if ia, ok := overlayfs.Identity(fa); ok {
		ib, ok := overlayfs.Identity(fb)
		return ok && ia == ib
	}
	pa, errA := f.call.sh.FS.Resolve(f.absPath(a), true)
	pb, errB := f.call.sh.FS.Resolve(f.absPath(b), true)
	return errA == nil && errB == nil && pa == pb
}
