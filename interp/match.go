package interp

import (
	"context"
	"strings"

)

// matcher is a compiled pattern bound to the call's context: long matches
// stop when the call does.
type matcher struct {
	p   *patPattern
	ctx context.Context
}

func (f *frame) patFlags(nocase bool) patFlags {
	var fl patFlags
	if f.opts.has(optExtglob) {
		fl |= patExtGlob
	}
	if nocase {
		fl |= patNoCase
	}
	return fl
}

func (f *frame) compilePattern(pat string, nocase bool) (*matcher, error) {
	return &matcher{p: patCompile(pat, f.patFlags(nocase)), ctx: f.ctx}, nil
}

// matchPattern matches all of s against pat ([[ == ]], case).
func (f *frame) matchPattern(pat, s string, nocase bool) bool {
	ok, _ := patCompile(pat, f.patFlags(nocase)).Match(f.ctx, s)
	return ok
}

func (m *matcher) matchString(s string) bool {
	ok, _ := m.p.Match(m.ctx, s)
	return ok
}

func (m *matcher) trimPrefix(s string, longest bool) string {
	n, err := m.p.Prefix(m.ctx, s, longest)
	if err != nil || n < 0 {
		return s
	}
	return s[n:]
}

func (m *matcher) trimSuffix(s string, longest bool) string {
	n, err := m.p.Suffix(m.ctx, s, longest)
	if err != nil || n < 0 {
		return s
	}
	return s[:n]
}

// replace implements ${x/p/r}: anchor 1 is /#, 2 is /%. The result's
// growth is checked against the memory budget as it is built.
func (m *matcher) replace(s, with string, all bool, anchor int, b *Budget, ctx context.Context) (string, bool) {
	switch anchor {
	case 1:
		n, err := m.p.Prefix(m.ctx, s, true)
		if err != nil {
			return s, false
		}
		if n < 0 {
			return s, true
		}
		return with + s[n:], true
	case 2:
		n, err := m.p.Suffix(m.ctx, s, true)
		if err != nil {
			return s, false
		}
		if n < 0 {
			return s, true
		}
		return s[:n] + with, true
	}
	var out strings.Builder
	last := 0
	ok := true
	err := m.p.Spans(m.ctx, s, all, func(start, end int) bool {
		out.WriteString(s[last:start])
		out.WriteString(with)
		last = end
		if out.Len() > 1<<16 && len(with) > 0 && !b.fits(int64(out.Len())) {
			ok = false
			return false
		}
		if ctx.Err() != nil {
			ok = false
			return false
		}
		return true
	})
	if err != nil || !ok {
		return s, false
	}
	if last == 0 && out.Len() == 0 {
		return s, true
	}
	out.WriteString(s[last:])
	return out.String(), true
}

func quoteMeta(s string) string { return patQuoteMeta(s) }

func unescapePattern(s string) string { return patUnescape(s) }

func hasGlobMeta(s string, ext bool) bool {
	var fl patFlags
	if ext {
		fl = patExtGlob
	}
	return patHasMeta(s, fl)
}
