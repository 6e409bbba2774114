package pattern

import (
	"context"
	"strings"
)

// Match reports whether p matches all of s. The error is the context's,
// when a long match was stopped.
func (p *Pattern) Match(ctx context.Context, s string) (bool, error) {
	if p.fast != fastNone {
		if p.flags&Period != 0 && len(s) > 0 && s[0] == '.' && !p.hasLitDot0 {
			return false, nil
		}
		switch p.fast {
		case fastLiteral:
			return s == p.lit, nil
		case fastStar:
			return true, nil
		case fastPrefix:
			return strings.HasPrefix(s, p.lit), nil
		case fastSuffix:
			return strings.HasSuffix(s, p.lit), nil
		case fastInfix:
			return strings.Contains(s, p.lit), nil
		case fastPrefSuff:
			return len(s) >= len(p.lit)+len(p.lit2) && strings.HasPrefix(s, p.lit) && strings.HasSuffix(s, p.lit2), nil
		}
	}
	if p.fwd != nil {
		return p.fwd.match(s, p.flags&Period != 0), nil
	}
	m := newSetMatcher(ctx, s, p.flags)
	ok := m.match(p.nodes)
	return ok && m.err == nil, m.err
}

// Prefix returns the end of the shortest (or longest) leading part of s
// that p matches, or -1 when none does: ${x#p} is x[end:].
func (p *Pattern) Prefix(ctx context.Context, s string, longest bool) (int, error) {
	switch p.fast {
	case fastLiteral:
		if strings.HasPrefix(s, p.lit) {
			return len(p.lit), nil
		}
		return -1, nil
	case fastStar:
		if longest {
			return len(s), nil
		}
		return 0, nil
	case fastPrefix:
		switch {
		case !strings.HasPrefix(s, p.lit):
			return -1, nil
		case longest:
			return len(s), nil
		}
		return len(p.lit), nil
	case fastSuffix:
		return endOf(s, 0, p.lit, longest), nil
	case fastInfix:
		i := strings.Index(s, p.lit)
		switch {
		case i < 0:
			return -1, nil
		case longest:
			return len(s), nil
		}
		return i + len(p.lit), nil
	case fastPrefSuff:
		if !strings.HasPrefix(s, p.lit) {
			return -1, nil
		}
		return endOf(s, len(p.lit), p.lit2, longest), nil
	}
	if p.fwd != nil {
		return p.fwd.prefix(s, 0, longest), nil
	}
	m := newSetMatcher(ctx, s, p.flags)
	e := m.prefix(p.nodes, 0, longest)
	if m.err != nil {
		return -1, m.err
	}
	return e, nil
}

// endOf returns the end of the first (or last) occurrence of lit in s[from:].
func endOf(s string, from int, lit string, last bool) int {
	var i int
	if last {
		i = strings.LastIndex(s[from:], lit)
	} else {
		i = strings.Index(s[from:], lit)
	}
	if i < 0 {
		return -1
	}
	return from + i + len(lit)
}

// Suffix returns the start of the shortest (or longest) trailing part of s
// that p matches, or -1 when none does: ${x%p} is x[:start].
func (p *Pattern) Suffix(ctx context.Context, s string, longest bool) (int, error) {
	switch p.fast {
	case fastLiteral:
		if strings.HasSuffix(s, p.lit) {
			return len(s) - len(p.lit), nil
		}
		return -1, nil
	case fastStar:
		if longest {
			return 0, nil
		}
		return len(s), nil
	case fastPrefix:
		return startOf(s, p.lit, !longest), nil
	case fastSuffix:
		switch {
		case !strings.HasSuffix(s, p.lit):
			return -1, nil
		case longest:
			return 0, nil
		}
		return len(s) - len(p.lit), nil
	case fastInfix:
		i := strings.LastIndex(s, p.lit)
		switch {
		case i < 0:
			return -1, nil
		case longest:
			return 0, nil
		}
		return i, nil
	case fastPrefSuff:
		if len(s) < len(p.lit2) || !strings.HasSuffix(s, p.lit2) {
			return -1, nil
		}
		return startOf(s[:len(s)-len(p.lit2)], p.lit, !longest), nil
	}
	if p.rev != nil {
		return p.rev.suffix(s, longest), nil
	}
	m := newSetMatcher(ctx, s, p.flags)
	i := m.suffix(p.nodes, longest)
	if m.err != nil {
		return -1, m.err
	}
	return i, nil
}

func startOf(s, lit string, last bool) int {
	if last {
		return strings.LastIndex(s, lit)
	}
	return strings.Index(s, lit)
}

// Spans calls yield with the start and end of each part of s that
// ${x/p/r} (all false: the first) or ${x//p/r} (all true: every one)
// replaces, in order, leftmost-longest as bash finds them. The caller copies
// the text between spans. After an empty match the search goes on one
// character later, as in bash. An empty pattern replaces nothing; an empty s is replaced when p matches
// it. For ${x/#p/r} and ${x/%p/r} use Prefix and Suffix with longest set.
func (p *Pattern) Spans(ctx context.Context, s string, all bool, yield func(start, end int) bool) error {
	if p.text == "" {
		return nil
	}
	if t := p.text; t[0] == '*' && t[len(t)-1] == '*' && len(t) > 1 && !(p.ext && t[1] == '(') {
		// bash searches only when the subject matches the pattern with
		// stars added at both ends, and adds none to a pattern that
		// starts and ends with '*', even an escaped one: ${x/*a\*/r}
		// replaces only when all of x matches.
		if ok, err := p.Match(ctx, s); !ok {
			return err
		}
	}
	if s == "" {
		ok, err := p.Match(ctx, s)
		if ok {
			yield(0, 0)
		}
		return err
	}
	f := finder{p: p, s: s, ctx: ctx}
	for i := 0; i < len(s); {
		st, e, err := f.find(i)
		if err != nil || st < 0 {
			return err
		}
		if !yield(st, e) || !all {
			return nil
		}
		i = e
		if e == st {
			// bash copies the character after an empty match before
			// searching again.
			_, n := runeAt(s, st)
			i += n
		}
	}
	return nil
}

// finder finds successive leftmost-longest matches in one subject.
type finder struct {
	p      *Pattern
	s      string
	ctx    context.Context
	starts []uint64 // NFA: every position a match starts at
	sets   *setMatcher
}

func (f *finder) find(from int) (int, int, error) {
	p, s := f.p, f.s
	switch p.fast {
	case fastLiteral:
		if i := strings.Index(s[from:], p.lit); i >= 0 {
			return from + i, from + i + len(p.lit), nil
		}
		return -1, -1, nil
	case fastStar:
		return from, len(s), nil
	case fastPrefix:
		if i := strings.Index(s[from:], p.lit); i >= 0 {
			return from + i, len(s), nil
		}
		return -1, -1, nil
	case fastSuffix:
		if e := endOf(s, from, p.lit, true); e >= 0 {
			return from, e, nil
		}
		return -1, -1, nil
	case fastInfix:
		if strings.Contains(s[from:], p.lit) {
			return from, len(s), nil
		}
		return -1, -1, nil
	}
	if p.rev != nil {
		if f.starts == nil {
			f.starts = p.rev.starts(s, from)
		}
		st := posSet(f.starts).next(from)
		if st < 0 {
			return -1, -1, nil
		}
		return st, p.fwd.prefix(s, st, true), nil
	}
	if f.sets == nil {
		f.sets = newSetMatcher(f.ctx, s, p.flags)
	}
	st, e := f.sets.find(p.nodes, from)
	return st, e, f.sets.err
}

// next returns the smallest member >= i, or -1.
func (p posSet) next(i int) int {
	for k := i >> 6; k < len(p); k++ {
		w := p[k]
		if k == i>>6 {
			w &^= 1<<(i&63) - 1
		}
		if w != 0 {
			return posSet{w}.min() + k*64
		}
	}
	return -1
}
