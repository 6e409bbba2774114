package interp

import (
	"context"
	"strings"

	"github.com/bashbox/bashbox/interp/pattern"
)

// matcher is a compiled pattern bound to the call's context: long matches
// stop when the call does.
type matcher struct {
	p   *pattern.Pattern
	ctx context.Context
}

func (f *frame) patFlags(nocase bool) pattern.Flags {
	var fl pattern.Flags
	if f.opts.has(optExtglob) {
		fl |= pattern.ExtGlob
	}
	if nocase {
		fl |= pattern.NoCase
	}
	return fl
}

// compilePattern returns a matcher by value: it lives on the caller's
// stack, and a loop's ${x#p} allocates nothing for it.
func (f *frame) compilePattern(pat string, nocase bool) (matcher, error) {
	return matcher{p: pattern.Compile(pat, f.patFlags(nocase)), ctx: f.ctx}, nil
}

// matchPattern matches all of s against pat ([[ == ]], case).
func (f *frame) matchPattern(pat, s string, nocase bool) bool {
	ok, _ := pattern.Compile(pat, f.patFlags(nocase)).Match(f.ctx, s)
	return ok
}

// condMatch matches s against the pattern of [[ s == pat ]]: bash
// parses the patterns of [[ ]] with extglob on, whatever the option.
func (f *frame) condMatch(pat, s string) bool {
	ok, _ := pattern.Compile(pat, f.patFlags(f.opts.has(optNocasematch))|pattern.ExtGlob).Match(f.ctx, s)
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

// fill joins the pieces of a replacement around copies of the match (&).
func fill(pieces []string, match string) string {
	if len(pieces) == 1 {
		return pieces[0]
	}
	return strings.Join(pieces, match)
}

// replace implements ${x/p/r}: anchor 1 is /#, 2 is /%. pieces are the
// replacement's text around each & (the matched text). The result's
// growth is checked against the memory budget as it is built.
func (m *matcher) replace(s string, pieces []string, all bool, anchor int, b *Budget, ctx context.Context) (string, bool) {
	switch anchor {
	case 1:
		n, err := m.p.Prefix(m.ctx, s, true)
		if err != nil {
			return s, false
		}
		if n < 0 {
			return s, true
		}
		return fill(pieces, s[:n]) + s[n:], true
	case 2:
		n, err := m.p.Suffix(m.ctx, s, true)
		if err != nil {
			return s, false
		}
		if n < 0 {
			return s, true
		}
		return s[:n] + fill(pieces, s[n:]), true
	}
	out := &strBuilder{bud: b, ctx: ctx}
	last, n := 0, 0
	with := pieces[0]
	err := m.p.Spans(m.ctx, s, all, func(start, end int) bool {
		if len(pieces) > 1 {
			with = fill(pieces, s[start:end])
		}
		if !out.WriteString(s[last:start]) || !out.WriteString(with) {
			return false
		}
		last = end
		if n++; n%4096 == 0 && ctx.Err() != nil {
			out.failed = true
			return false
		}
		return true
	})
	if err != nil || out.failed {
		out.release()
		return s, false
	}
	if last == 0 && out.Len() == 0 {
		return s, true
	}
	if !out.WriteString(s[last:]) {
		out.release()
		return s, false
	}
	return out.String(), true
}

func quoteMeta(s string) string { return pattern.QuoteMeta(s) }

func unescapePattern(s string) string { return pattern.Unescape(s) }

func hasGlobMeta(s string, ext bool) bool {
	var fl pattern.Flags
	if ext {
		fl = pattern.ExtGlob
	}
	return pattern.HasMeta(s, fl)
}
