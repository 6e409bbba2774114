package pattern

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/bashbox/bashbox/internal/lazy"
)

// Flags select how a pattern is read and matched.
type Flags uint8

const (
	// ExtGlob enables ?(..) *(..) +(..) @(..) !(..) (shopt extglob).
	ExtGlob Flags = 1 << iota
	// NoCase matches letters regardless of case (nocasematch, nocaseglob).
	// As in bash, named classes such as [[:lower:]] are not folded.
	NoCase
	// Period requires a leading '.' of the string to be matched by a literal
	// '.' in the pattern: globbing a path element with dotglob off.
	Period
)

type nodeKind uint8

const (
	kLit   nodeKind = iota // one character
	kAny                   // ?
	kStar                  // *
	kClass                 // [...]
	kGroup                 // extglob operator
)

type node struct {
	kind nodeKind
	op   byte // kGroup: one of ? * + @ !
	r    rune // kLit
	cls  *class
	alts [][]node // kGroup
}

// fastKind names the patterns matched with plain string searches.
type fastKind uint8

const (
	fastNone     fastKind = iota
	fastLiteral           // lit
	fastStar              // *
	fastPrefix            // lit*
	fastSuffix            // *lit
	fastInfix             // *lit*
	fastPrefSuff          // lit*lit2 (Match only)
)

// Pattern is a compiled pattern. It is immutable and safe for concurrent use.
type Pattern struct {
	text  string
	flags Flags
	nodes []node
	ext   bool // has extglob groups: matched on position sets

	fast       fastKind
	lit, lit2  string
	fwd, rev   *nfa // nil when the pattern needs the position-set engine
	hasLitDot0 bool // the first node is a literal '.', for Period
}

// runeAt decodes the character at s[i:]. An invalid byte is one character,
// given a value outside Unicode so it equals only the same byte.
func runeAt(s string, i int) (rune, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n == 1 {
		return badRune + rune(c), 1
	}
	return r, n
}

// runeBefore decodes the character ending at s[:i].
func runeBefore(s string, i int) (rune, int) {
	c := s[i-1]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	r, n := utf8.DecodeLastRuneInString(s[:i])
	if r == utf8.RuneError && n == 1 {
		return badRune + rune(c), 1
	}
	return r, n
}

const badRune = 0x110000

// QuoteMeta returns s with every character that is special in a pattern
// (with or without extglob) escaped by a backslash, so that the result
// matches s literally. Use it for the quoted parts of a word.
func QuoteMeta(s string) string {
	if !strings.ContainsAny(s, `*?[]\()|!+@^-`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*', '?', '[', ']', '\\', '(', ')', '|', '!', '+', '@', '^', '-':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// HasMeta reports whether pat contains an unescaped character that makes
// it a pattern rather than literal text: bash globs a word only then.
func HasMeta(pat string, flags Flags) bool {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if _, _, ok := parseClass(pat, i, flags); ok {
				return true
			}
		case '+', '@', '!':
			if flags&ExtGlob != 0 && i+1 < len(pat) && pat[i+1] == '(' {
				if _, _, ok := parseGroup(pat, i, flags, 0); ok {
					return true
				}
			}
		}
	}
	return false
}

// Unescape returns the text pat matches when it has no meta characters:
// backslash escapes removed.
func Unescape(pat string) string {
	if !strings.Contains(pat, `\`) {
		return pat
	}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		if pat[i] == '\\' && i+1 < len(pat) {
			i++
		}
		b.WriteByte(pat[i])
	}
	return b.String()
}

// maxGroupDepth bounds extglob nesting so hostile patterns cannot exhaust
// the stack; deeper text is read literally.
const maxGroupDepth = 64

// parse reads pat into nodes. depth counts enclosing extglob groups.
func parse(pat string, flags Flags, depth int) []node {
	var nodes []node
	for i := 0; i < len(pat); {
		c := pat[i]
		if flags&ExtGlob != 0 && i+1 < len(pat) && pat[i+1] == '(' && strings.IndexByte("?*+@!", c) >= 0 {
			if g, end, ok := parseGroup(pat, i, flags, depth); ok {
				nodes = append(nodes, g)
				i = end
				continue
			}
		}
		switch c {
		case '\\':
			if i+1 < len(pat) {
				r, n := runeAt(pat, i+1)
				nodes = append(nodes, node{kind: kLit, r: r})
				i += 1 + n
				continue
			}
			nodes = append(nodes, node{kind: kLit, r: '\\'})
			i++
			continue
		case '*':
			if len(nodes) == 0 || nodes[len(nodes)-1].kind != kStar {
				nodes = append(nodes, node{kind: kStar})
			}
			i++
			continue
		case '?':
			nodes = append(nodes, node{kind: kAny})
			i++
			continue
		case '[':
			if cls, end, ok := parseClass(pat, i, flags); ok {
				nodes = append(nodes, node{kind: kClass, cls: cls})
				i = end
				continue
			}
		}
		r, n := runeAt(pat, i)
		nodes = append(nodes, node{kind: kLit, r: r})
		i += n
	}
	return nodes
}

// parseGroup reads the extglob group whose operator is at pat[i]. It
// returns ok=false when the group is not closed, leaving the text literal.
func parseGroup(pat string, i int, flags Flags, depth int) (node, int, bool) {
	if depth >= maxGroupDepth {
		return node{}, 0, false
	}
	op := pat[i]
	var alts []string
	start := i + 2
	level := 0
	for j := start; j < len(pat); j++ {
		switch pat[j] {
		case '\\':
			j++
		case '[':
			if _, end, ok := parseClass(pat, j, flags); ok {
				j = end - 1
			}
		case '(':
			level++
		case '|':
			if level == 0 {
				alts = append(alts, pat[start:j])
				start = j + 1
			}
		case ')':
			if level > 0 {
				level--
				continue
			}
			alts = append(alts, pat[start:j])
			g := node{kind: kGroup, op: op, alts: make([][]node, len(alts))}
			for k, a := range alts {
				g.alts[k] = parse(a, flags, depth+1)
			}
			return g, j + 1, true
		}
	}
	return node{}, 0, false
}

// Compile returns the compiled form of pat, from the cache when it was
// compiled before with the same flags. Every text is a valid pattern.
func Compile(pat string, flags Flags) *Pattern {
	k := cacheKey{pat, flags}
	if p := cache.Get().get(k); p != nil {
		return p
	}
	p := compile(pat, flags)
	cache.Get().put(k, p)
	return p
}

func compile(pat string, flags Flags) *Pattern {
	p := &Pattern{text: pat, flags: flags, nodes: parse(pat, flags, 0)}
	for _, n := range p.nodes {
		if n.kind == kGroup {
			p.ext = true
		}
	}
	if len(p.nodes) > 0 && p.nodes[0].kind == kLit && p.nodes[0].r == '.' {
		p.hasLitDot0 = true
	}
	if !p.ext {
		p.classifyFast()
		p.fwd = newNFA(p.nodes, flags, false)
		if p.fwd != nil {
			p.rev = newNFA(p.nodes, flags, true)
		}
	}
	return p
}

// classifyFast recognises patterns that plain string searches match.
func (p *Pattern) classifyFast() {
	if p.flags&NoCase != 0 {
		return
	}
	// Split into literal runs around stars; give up on any other node.
	var runs []string
	var stars []bool // stars[i]: a star precedes runs[i]
	var cur strings.Builder
	star := false
	for _, n := range p.nodes {
		switch n.kind {
		case kLit:
			if n.r >= badRune {
				cur.WriteByte(byte(n.r - badRune))
			} else {
				cur.WriteRune(n.r)
			}
		case kStar:
			runs = append(runs, cur.String())
			stars = append(stars, star)
			cur.Reset()
			star = true
		default:
			return
		}
	}
	runs = append(runs, cur.String())
	stars = append(stars, star)
	switch {
	case len(runs) == 1:
		p.fast, p.lit = fastLiteral, runs[0]
	case len(runs) == 2 && runs[0] == "" && runs[1] == "":
		p.fast = fastStar
	case len(runs) == 2 && runs[1] == "":
		p.fast, p.lit = fastPrefix, runs[0]
	case len(runs) == 2 && runs[0] == "":
		p.fast, p.lit = fastSuffix, runs[1]
	case len(runs) == 2:
		p.fast, p.lit, p.lit2 = fastPrefSuff, runs[0], runs[1]
	case len(runs) == 3 && runs[0] == "" && runs[2] == "":
		p.fast, p.lit = fastInfix, runs[1]
	}
}

// String returns the pattern text as given to Compile.
func (p *Pattern) String() string { return p.text }

// Literal returns the text the pattern matches when it matches exactly one
// string (no meta characters and no case folding).
func (p *Pattern) Literal() (string, bool) {
	if p.fast == fastLiteral {
		return p.lit, true
	}
	return "", false
}

type cacheKey struct {
	text  string
	flags Flags
}

// patternCache keeps two generations: when the current one is full it
// becomes the old one, so hot patterns survive and memory stays bounded.
// Lookups take no lock: loops look the same pattern up on every iteration.
type patternCache struct {
	cur, old atomic.Pointer[sync.Map]
	n        atomic.Int64
	mu       sync.Mutex // serialises generation swaps
	max      int64
}

// cache is built at the first pattern compiled, not at every start.
var cache = lazy.Value[*patternCache]{New: func() *patternCache { return newPatternCache(512) }}

func newPatternCache(max int64) *patternCache {
	c := &patternCache{max: max}
	c.cur.Store(new(sync.Map))
	c.old.Store(new(sync.Map))
	return c
}

// maxCachedText keeps huge pattern texts (built from data) out of the cache.
const maxCachedText = 4096

func (c *patternCache) get(k cacheKey) *Pattern {
	if p, ok := c.cur.Load().Load(k); ok {
		return p.(*Pattern)
	}
	if p, ok := c.old.Load().Load(k); ok {
		c.put(k, p.(*Pattern))
		return p.(*Pattern)
	}
	return nil
}

func (c *patternCache) put(k cacheKey, p *Pattern) {
	if len(k.text) > maxCachedText {
		return
	}
	c.cur.Load().Store(k, p)
	if c.n.Add(1) > c.max {
		c.mu.Lock()
		if c.n.Load() > c.max {
			c.old.Store(c.cur.Load())
			c.cur.Store(new(sync.Map))
			c.n.Store(0)
		}
		c.mu.Unlock()
	}
}

// size reports how many patterns the cache holds, for tests.
func (c *patternCache) size() int {
	n := 0
	for _, m := range []*sync.Map{c.cur.Load(), c.old.Load()} {
		m.Range(func(any, any) bool { n++; return true })
	}
	return n
}
