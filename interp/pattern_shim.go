package interp

// A stand-in for interp/pattern (being built on another branch) with the
// same shape, on mvdan.cc/sh/v3/pattern's regular expressions, cached.
// It goes away when interp/pattern is merged.

import (
	"context"
	"regexp"
	"sync"

	shpattern "mvdan.cc/sh/v3/pattern"
)

type patFlags uint8

const (
	patExtGlob patFlags = 1 << iota
	patNoCase
	patPeriod
)

type patPattern struct {
	re, prefixRe *regexp.Regexp
	bad          bool
	lit          string
}

type patKey struct {
	s string
	f patFlags
}

var patCache sync.Map

func patCompile(pat string, fl patFlags) *patPattern {
	k := patKey{pat, fl}
	if p, ok := patCache.Load(k); ok {
		return p.(*patPattern)
	}
	mode := shpattern.EntireString | shpattern.NoGlobStar
	if fl&patExtGlob != 0 {
		mode |= shpattern.ExtendedOperators
	}
	if fl&patNoCase != 0 {
		mode |= shpattern.NoGlobCase
	}
	if fl&patPeriod == 0 {
		mode |= shpattern.GlobLeadingDot
	}
	p := &patPattern{}
	src, err := shpattern.Regexp(pat, mode)
	if err == nil {
		p.re, err = regexp.Compile("(?s)" + src)
	}
	if err != nil {
		p.bad, p.lit = true, pat
	} else {
		src2, _ := shpattern.Regexp(pat, mode&^shpattern.EntireString)
		p.prefixRe = regexp.MustCompile("(?s)" + src2)
	}
	patCache.Store(k, p)
	return p
}

func (p *patPattern) Match(_ context.Context, s string) (bool, error) {
	if p.bad {
		return s == p.lit, nil
	}
	return p.re.MatchString(s), nil
}

// Prefix returns the end of the shortest or longest matching prefix, -1
// for none.
func (p *patPattern) Prefix(ctx context.Context, s string, longest bool) (int, error) {
	if longest {
		for i := len(s); i >= 0; i-- {
			if ok, _ := p.Match(ctx, s[:i]); ok {
				return i, nil
			}
		}
		return -1, nil
	}
	for i := 0; i <= len(s); i++ {
		if ok, _ := p.Match(ctx, s[:i]); ok {
			return i, nil
		}
	}
	return -1, nil
}

// Suffix returns the start of the shortest or longest matching suffix.
func (p *patPattern) Suffix(ctx context.Context, s string, longest bool) (int, error) {
	if longest {
		for i := 0; i <= len(s); i++ {
			if ok, _ := p.Match(ctx, s[i:]); ok {
				return i, nil
			}
		}
		return -1, nil
	}
	for i := len(s); i >= 0; i-- {
		if ok, _ := p.Match(ctx, s[i:]); ok {
			return i, nil
		}
	}
	return -1, nil
}

// Spans yields the leftmost-longest matches, all or the first.
func (p *patPattern) Spans(ctx context.Context, s string, all bool, yield func(start, end int) bool) error {
	for i := 0; i <= len(s); {
		end := -1
		for j := len(s); j >= i; j-- {
			if ok, _ := p.Match(ctx, s[i:j]); ok {
				end = j
				break
			}
		}
		if end < 0 || end == i {
			i++
			continue
		}
		if !yield(i, end) || !all {
			return ctx.Err()
		}
		i = end
	}
	return ctx.Err()
}

func patQuoteMeta(s string) string { return shpattern.QuoteMeta(s, 0) }

func patHasMeta(s string, fl patFlags) bool {
	mode := shpattern.Mode(0)
	if fl&patExtGlob != 0 {
		mode |= shpattern.ExtendedOperators
	}
	return shpattern.HasMeta(s, mode)
}

func patUnescape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		out = append(out, s[i])
	}
	return string(out)
}
